"""``torch.nn.utils``: gradient clipping, parameters as one vector, rnn packing, conv/linear
and BatchNorm fusion, weight memory formats, skip_init, parametrizations (``parametrize``,
``parametrizations``) and the weight/spectral norm hooks."""
# (`X as X`: what a type checker's no-implicit-reexport mode sees as exported)
from autograd_core.nn.utils import rnn as rnn
from autograd_core.nn.utils.clip_grad import (
    clip_grad_norm as clip_grad_norm,
    clip_grad_norm_ as clip_grad_norm_,
    clip_grad_value_ as clip_grad_value_,
    clip_grads_with_norm_ as clip_grads_with_norm_,
    get_total_norm as get_total_norm,
)
from autograd_core.nn.utils.convert_parameters import (
    parameters_to_vector as parameters_to_vector,
    vector_to_parameters as vector_to_parameters,
)
from autograd_core.nn.utils import stateless as stateless
# fusion, memory formats, skip_init
from autograd_core.nn.utils.fusion import (
    fuse_conv_bn_eval as fuse_conv_bn_eval,
    fuse_conv_bn_weights as fuse_conv_bn_weights,
    fuse_linear_bn_eval as fuse_linear_bn_eval,
    fuse_linear_bn_weights as fuse_linear_bn_weights,
)
from autograd_core.nn.utils.memory_format import (
    convert_conv2d_weight_memory_format as convert_conv2d_weight_memory_format,
    convert_conv3d_weight_memory_format as convert_conv3d_weight_memory_format,
)
from autograd_core.nn.utils.init import skip_init as skip_init

# ---- parametrizations and the weight/spectral norm hooks (issue 28 item 2)
from autograd_core.nn.utils import parametrize as parametrize
from autograd_core.nn.utils import parametrizations as parametrizations
from autograd_core.nn.utils.spectral_norm import (
    remove_spectral_norm as remove_spectral_norm,
    spectral_norm as spectral_norm,
)
from autograd_core.nn.utils.weight_norm import (
    remove_weight_norm as remove_weight_norm,
    weight_norm as weight_norm,
)
# ---- end parametrizations
