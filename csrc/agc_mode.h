/* Grad mode and inference mode, per thread as in PyTorch; the forward-AD level.
 *
 * Compiled into one extension module only (autograd_core._core.tensor): a thread-local
 * variable linked into several modules would exist once per module. Every other
 * module reads and sets the modes through the functions tensor.pxd exports. */
#ifndef AGC_MODE_H
#define AGC_MODE_H

int agc_grad_enabled(void);
void agc_set_grad_enabled(int enabled);
int agc_inference_mode(void);
void agc_set_inference_mode(int enabled);
/* Whether ops record: grad mode on and not inside inference mode. */
int agc_recording(void);

/* Forward-mode AD (Note [Forward AD] in _core/_fw.pxi). A dual level is process-wide,
 * as PyTorch's ForwardADLevel; forward grad mode (_set_fwd_grad_enabled) is per thread.
 * agc_fw_active() is the one check an op makes when no level is active. */
int agc_fw_active(void);
/* 1 while a level is active, else 0: the address family modules read it at (one load per
 * op when no level is active), before asking agc_fw_active() */
extern int agc_fw_level_on;
int agc_fw_level(void);             /* the active level, or -1 */
long agc_fw_generation(void);       /* a number unique to the active level, 0 outside */
void agc_fw_enter(void);
void agc_fw_exit(void);
int agc_fw_grad_enabled(void);
void agc_set_fw_grad_enabled(int enabled);

/* torch.autograd.enforce_grad_layout_policy, per thread: whether AccumulateGrad gives a
 * gradient it steals the leaf's layout (on, PyTorch's default) or keeps its own. */
int agc_grad_layout_enforced(void);
void agc_set_grad_layout_enforced(int enabled);

#endif
