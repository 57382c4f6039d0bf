"""``torch.nn.utils``: gradient clipping, parameters as one vector, and rnn packing."""
from autograd_core.nn.utils import rnn  # noqa: F401
from autograd_core.nn.utils.clip_grad import (  # noqa: F401
    clip_grad_norm, clip_grad_norm_, clip_grad_value_, clip_grads_with_norm_, get_total_norm,
)
from autograd_core.nn.utils.convert_parameters import (  # noqa: F401
    parameters_to_vector, vector_to_parameters,
)
from autograd_core.nn.utils import stateless  # noqa: F401
