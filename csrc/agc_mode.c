#include "agc_mode.h"

/* Every op reads these (grad mode, inference mode: make(), recording()), and the
 * default TLS model of a shared library reaches a thread-local through a call to
 * __tls_get_addr (~50 instructions per op on a chain of tiny ops, callgrind). The
 * initial-exec model reads it at a fixed offset from the thread pointer; glibc keeps a
 * surplus of static TLS for libraries loaded later (dlopen) that use it, and these few
 * ints are all this module takes of it. */
#if defined(__GNUC__) && !defined(_WIN32)
#define AGC_TLS __thread __attribute__((tls_model("initial-exec")))
#else
#define AGC_TLS __thread
#endif

static AGC_TLS int grad_disabled = 0;  /* zero-initialised per thread: enabled */
static AGC_TLS int inference_on = 0;

int agc_grad_enabled(void) { return !grad_disabled; }
void agc_set_grad_enabled(int enabled) { grad_disabled = !enabled; }
int agc_inference_mode(void) { return inference_on; }
void agc_set_inference_mode(int enabled) { inference_on = enabled != 0; }
int agc_recording(void) { return !grad_disabled && !inference_on; }

static int fw_level = -1;
int agc_fw_level_on = 0;
static long fw_generation = 0;
static long fw_generations = 0;
static AGC_TLS int fw_disabled = 0;

int agc_fw_active(void) { return fw_level >= 0 && !fw_disabled; }
int agc_fw_level(void) { return fw_level; }
long agc_fw_generation(void) { return fw_level >= 0 ? fw_generation : 0; }
void agc_fw_enter(void) { fw_level = 0; fw_generation = ++fw_generations; agc_fw_level_on = 1; }
void agc_fw_exit(void) { fw_level = -1; fw_generation = 0; agc_fw_level_on = 0; }
int agc_fw_grad_enabled(void) { return !fw_disabled; }
void agc_set_fw_grad_enabled(int enabled) { fw_disabled = !enabled; }

/* torch.autograd.enforce_grad_layout_policy, per thread as in PyTorch: whether
 * AccumulateGrad holds a stolen gradient to the gradient layout contract
 * (Note [Stealing the gradient], _core/_node.pxi). Declared where it is used
 * (tensor.pyx), not in agc_mode.h: only that module reads it. */
static AGC_TLS int grad_layout_relaxed = 0;

int agc_grad_layout_enforced(void) { return !grad_layout_relaxed; }
void agc_set_grad_layout_enforced(int enabled) { grad_layout_relaxed = !enabled; }
