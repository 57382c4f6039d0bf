"""Array helpers of the SummaryWriter: tensors to numpy, image layouts to HWC, image
grids and matplotlib figures to arrays."""
import numpy as np


def make_np(x):
    """x (a tensor, numpy array or Python number) as a numpy array; a number becomes a
    one-element array.  bfloat16 goes through float16, as PyTorch's does."""
    import autograd_core as _ag
    if isinstance(x, np.ndarray):
        return x
    if np.isscalar(x):
        return np.array([x])
    if isinstance(x, _ag.Tensor):
        if x.dtype == _ag.bfloat16:
            x = x.to(_ag.float16)
        return x.detach().cpu().numpy()
    raise NotImplementedError(f"Got {type(x)}, but numpy array or torch tensor are expected.")


def make_grid(I, ncols=8):  # noqa: E741  (I: N x 1 or 3 x H x W)
    """Images side by side, ncols per row, in one 3 x H' x W' array (gray made RGB)."""
    if not isinstance(I, np.ndarray):
        raise AssertionError("plugin error, should pass numpy array here")
    if I.shape[1] == 1:
        I = np.concatenate([I, I, I], 1)  # noqa: E741
    if I.ndim != 4 or I.shape[1] != 3:
        raise AssertionError("Input should be a 4D numpy array with 3 channels")
    nimg, _, H, W = I.shape
    ncols = min(nimg, ncols)
    nrows = int(np.ceil(float(nimg) / ncols))
    canvas = np.zeros((3, H * nrows, W * ncols), dtype=I.dtype)
    for i in range(nimg):
        y, x = divmod(i, ncols)
        canvas[:, y * H:(y + 1) * H, x * W:(x + 1) * W] = I[i]
    return canvas


def convert_to_HWC(tensor, input_format):
    """A numpy image (or batch, which becomes a grid) in dataformat input_format ("CHW",
    "HWC", "HW", "NCHW", ...) as height x width x 3 (or 4) channels."""
    if len(set(input_format)) != len(input_format):
        raise AssertionError(f"You can not use the same dimension shorthand twice. \
            input_format: {input_format}")
    if len(tensor.shape) != len(input_format):
        raise AssertionError(f"size of input tensor and input format are different. \
        tensor shape: {tensor.shape}, input_format: {input_format}")
    input_format = input_format.upper()
    if len(input_format) == 4:
        tensor_NCHW = tensor.transpose([input_format.find(c) for c in "NCHW"])
        return make_grid(tensor_NCHW).transpose(1, 2, 0)
    if len(input_format) == 3:
        tensor_HWC = tensor.transpose([input_format.find(c) for c in "HWC"])
        if tensor_HWC.shape[2] == 1:
            tensor_HWC = np.concatenate([tensor_HWC, tensor_HWC, tensor_HWC], 2)
        return tensor_HWC
    if len(input_format) == 2:
        tensor = tensor.transpose([input_format.find(c) for c in "HW"])
        return np.stack([tensor, tensor, tensor], 2)
    return None


def figure_to_image(figures, close=True):
    """A matplotlib figure rendered as a 3 x H x W uint8 array (a list of figures: N x 3 x
    H x W); needs matplotlib."""
    import matplotlib.backends.backend_agg as plt_backend_agg
    import matplotlib.pyplot as plt

    def render_to_rgb(figure):
        canvas = plt_backend_agg.FigureCanvasAgg(figure)
        canvas.draw()
        data = np.frombuffer(canvas.buffer_rgba(), dtype=np.uint8)
        w, h = figure.canvas.get_width_height()
        image_chw = np.moveaxis(data.reshape([h, w, 4])[:, :, 0:3], source=2, destination=0)
        if close:
            plt.close(figure)
        return image_chw

    if isinstance(figures, list):
        return np.stack([render_to_rgb(figure) for figure in figures])
    return render_to_rgb(figures)


def _prepare_video(V):
    """A batch of videos (B x T x C x H x W) as T frames, each the batch tiled in a grid
    (the batch padded to a power of two): T x H' x W' x C."""
    b, t, c, h, w = V.shape
    if V.dtype == np.uint8:
        V = np.float32(V) / 255.0
    if not (V.shape[0] != 0 and (V.shape[0] & (V.shape[0] - 1)) == 0):
        len_addition = int(2 ** V.shape[0].bit_length() - V.shape[0])
        V = np.concatenate((V, np.zeros(shape=(len_addition, t, c, h, w))), axis=0)
    n_rows = 2 ** ((b.bit_length() - 1) // 2)
    n_cols = V.shape[0] // n_rows
    V = np.reshape(V, (n_rows, n_cols, t, c, h, w))
    V = np.transpose(V, axes=(2, 0, 4, 1, 5, 3))
    return np.reshape(V, (t, n_rows * h, n_cols * w, c))
