/* Grad mode and inference mode, per thread as in PyTorch.
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

#endif
