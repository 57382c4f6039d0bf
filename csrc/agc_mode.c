#include "agc_mode.h"

static __thread int grad_disabled = 0;  /* zero-initialised per thread: enabled */
static __thread int inference_on = 0;

int agc_grad_enabled(void) { return !grad_disabled; }
void agc_set_grad_enabled(int enabled) { grad_disabled = !enabled; }
int agc_inference_mode(void) { return inference_on; }
void agc_set_inference_mode(int enabled) { inference_on = enabled != 0; }
int agc_recording(void) { return !grad_disabled && !inference_on; }

static int fw_level = -1;
int agc_fw_level_on = 0;
static long fw_generation = 0;
static long fw_generations = 0;
static __thread int fw_disabled = 0;

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
static __thread int grad_layout_relaxed = 0;

int agc_grad_layout_enforced(void) { return !grad_layout_relaxed; }
void agc_set_grad_layout_enforced(int enabled) { grad_layout_relaxed = !enabled; }
