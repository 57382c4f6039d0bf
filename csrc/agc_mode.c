#include "agc_mode.h"

static __thread int grad_disabled = 0;  /* zero-initialised per thread: enabled */
static __thread int inference_on = 0;

int agc_grad_enabled(void) { return !grad_disabled; }
void agc_set_grad_enabled(int enabled) { grad_disabled = !enabled; }
int agc_inference_mode(void) { return inference_on; }
void agc_set_inference_mode(int enabled) { inference_on = enabled != 0; }
int agc_recording(void) { return !grad_disabled && !inference_on; }
