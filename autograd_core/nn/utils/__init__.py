"""``torch.nn.utils``: gradient clipping, parameters as one vector, rnn packing, conv/linear
and BatchNorm fusion, weight memory formats, skip_init, parametrizations (``parametrize``,
``parametrizations``) and the weight/spectral norm hooks."""
from autograd_core.nn.utils import rnn  # noqa: F401
from autograd_core.nn.utils.clip_grad import (  # noqa: F401
    clip_grad_norm, clip_grad_norm_, clip_grad_value_, clip_grads_with_norm_, get_total_norm,
)
from autograd_core.nn.utils.convert_parameters import (  # noqa: F401
    parameters_to_vector, vector_to_parameters,
)
from autograd_core.nn.utils import stateless  # noqa: F401
# fusion, memory formats, skip_init
from autograd_core.nn.utils.fusion import (  # noqa: F401
    fuse_conv_bn_eval, fuse_conv_bn_weights, fuse_linear_bn_eval, fuse_linear_bn_weights,
)
from autograd_core.nn.utils.memory_format import (  # noqa: F401
    convert_conv2d_weight_memory_format, convert_conv3d_weight_memory_format,
)
from autograd_core.nn.utils.init import skip_init  # noqa: F401

# ---- parametrizations and the weight/spectral norm hooks (issue 28 item 2)
from autograd_core.nn.utils import parametrize  # noqa: F401,E402
from autograd_core.nn.utils import parametrizations  # noqa: F401,E402
from autograd_core.nn.utils.spectral_norm import (  # noqa: F401,E402
    remove_spectral_norm, spectral_norm,
)
from autograd_core.nn.utils.weight_norm import remove_weight_norm, weight_norm  # noqa: F401,E402
# ---- end parametrizations
