"""RNN, LSTM, GRU (multi-layer, bidirectional, batch_first, dropout between layers, packed
sequences, LSTM projections) and their cells, with PyTorch's parameter names, layout
(gates stacked i|f|g|o for LSTM, r|z|n for GRU) and initialisation U(-1/sqrt(H), 1/sqrt(H)).
The recurrence is a loop over time steps of public ops; the input projection of a whole
layer is one matmul."""
from __future__ import annotations
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from autograd_core._core.dtype import dtype as _dtype
    from autograd_core._core.tensor import Tensor

    _SizeArg = int | tuple[int, ...]

import math
import numbers
import warnings

import numpy as np

import autograd_core as _ag
from autograd_core.nn import functional as F
from autograd_core.nn import init
from autograd_core.nn.modules.module import Module
from autograd_core.nn.parameter import Parameter
from autograd_core.nn.utils.rnn import PackedSequence

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]


def _apply_permutation(tensor, permutation, dim=1):
    return tensor.index_select(dim, permutation)


def _linear_nobias(x, w):
    return _ag.matmul(x, w.t())


# ------------------------------------------------------------------ one step of each cell

def _rnn_step(act):
    def step(gi, h, c, w_hh, b_hh, w_hr):
        gh = _linear_nobias(h, w_hh)
        if b_hh is not None:
            gh = gh + b_hh
        return act(gi + gh), None

    return step


def _lstm_step(gi, h, c, w_hh, b_hh, w_hr):
    gates = gi + _linear_nobias(h, w_hh)
    if b_hh is not None:
        gates = gates + b_hh
    i, f, g, o = gates.chunk(4, 1)
    c_new = _ag.sigmoid(f) * c + _ag.sigmoid(i) * _ag.tanh(g)
    h_new = _ag.sigmoid(o) * _ag.tanh(c_new)
    if w_hr is not None:
        h_new = _linear_nobias(h_new, w_hr)
    return h_new, c_new


def _gru_step(gi, h, c, w_hh, b_hh, w_hr):
    gh = _linear_nobias(h, w_hh)
    if b_hh is not None:
        gh = gh + b_hh
    i_r, i_z, i_n = gi.chunk(3, 1)
    h_r, h_z, h_n = gh.chunk(3, 1)
    r = _ag.sigmoid(i_r + h_r)
    z = _ag.sigmoid(i_z + h_z)
    n = _ag.tanh(i_n + r * h_n)
    return (1 - z) * n + z * h, None


_STEPS = {"RNN_TANH": _rnn_step(_ag.tanh), "RNN_RELU": _rnn_step(_ag.relu), "LSTM": _lstm_step,
          "GRU": _gru_step}


def _run_direction(step, x_proj, batch_sizes, h0, c0, params, reverse):
    """One layer in one direction over time-major packed rows.

    x_proj: (sum(batch_sizes), G) input projections of the packed rows; batch_sizes: the
    active rows per step (non-increasing); h0/c0: (B, H) initial states. Returns the packed
    outputs (rows in x_proj's order) and the final (h, c) of every sequence."""
    w_hh, b_hh, w_hr = params
    offsets = np.concatenate([[0], np.cumsum(batch_sizes)])
    steps = range(len(batch_sizes) - 1, -1, -1) if reverse else range(len(batch_sizes))
    h, c = h0, c0
    outs = [None] * len(batch_sizes)
    for t in steps:
        bs = int(batch_sizes[t])
        gi = x_proj.narrow(0, int(offsets[t]), bs)
        full = bs == h.size(0)
        h_in = h if full else h.narrow(0, 0, bs)
        c_in = None if c is None else (c if full else c.narrow(0, 0, bs))
        h_new, c_new = step(gi, h_in, c_in, w_hh, b_hh, w_hr)
        outs[t] = h_new
        if full:
            h, c = h_new, c_new
        else:
            h = _ag.cat([h_new, h.narrow(0, bs, h.size(0) - bs)])
            if c is not None:
                c = _ag.cat([c_new, c.narrow(0, bs, c.size(0) - bs)])
    return _ag.cat(outs) if outs else x_proj.narrow(1, 0, 0), h, c


class RNNBase(Module):
    """The multi-layer recurrent network machinery shared by RNN, LSTM and GRU."""

    __constants__ = ["mode", "input_size", "hidden_size", "num_layers", "bias", "batch_first",
                     "dropout", "bidirectional", "proj_size"]

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device: Any = None,
                 dtype: _dtype | None = None) -> None:
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or \
                isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so "
                          "non-zero dropout expects num_layers greater than 1, but got "
                          f"dropout={dropout} and num_layers={num_layers}", stacklevel=2)
        if not isinstance(bias, bool):
            raise TypeError(f"bias should be of type bool, got: {type(bias).__name__}")
        if not isinstance(batch_first, bool):
            raise TypeError(f"batch_first should be of type bool, got: "
                            f"{type(batch_first).__name__}")
        if not isinstance(input_size, int):
            raise TypeError(f"input_size should be of type int, got: {type(input_size).__name__}")
        if input_size <= 0:
            raise ValueError("input_size must be greater than zero")
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: "
                            f"{type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable "
                             "projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        gate_size = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}.get(mode)
        if gate_size is None:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size *= hidden_size
        self._flat_weights_names = []
        self._all_weights = []
        real_hidden_size = proj_size if proj_size > 0 else hidden_size
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions
                suffix = "_reverse" if direction == 1 else ""
                params = [("weight_ih_l{}{}", (gate_size, layer_input_size)),
                          ("weight_hh_l{}{}", (gate_size, real_hidden_size))]
                if bias:
                    params += [("bias_ih_l{}{}", (gate_size,)), ("bias_hh_l{}{}", (gate_size,))]
                if proj_size > 0:
                    params += [("weight_hr_l{}{}", (proj_size, hidden_size))]
                names = []
                for fmt, shape in params:
                    name = fmt.format(layer, suffix)
                    setattr(self, name, Parameter(_ag.empty(shape, dtype=dtype)))
                    names.append(name)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self):
        return [getattr(self, wn) if hasattr(self, wn) else None
                for wn in self._flat_weights_names]

    def flatten_parameters(self):
        """A no-op kept for compatibility (there is no cuDNN weight buffer here)."""

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def check_input(self, input, batch_sizes):
        w0 = self._flat_weights[0]
        if input.dtype != w0.dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype "
                             f"({w0.dtype}). Convert input: input.to({w0.dtype}), or convert "
                             f"model: model.to({input.dtype})")
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(f"input must have {expected_input_dim} dimensions, got "
                               f"{input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.size(-1)}")

    def get_expected_hidden_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * num_directions, mini_batch, size)

    def check_hidden_size(self, hx, expected_hidden_size, msg="Expected hidden size {}, got {}"):
        if tuple(hx.size()) != tuple(expected_hidden_size):
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return _apply_permutation(hx, permutation)

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    def __setstate__(self, d):
        super().__setstate__(d)
        if "proj_size" not in d:
            self.proj_size = 0

    @property
    def all_weights(self):
        return [[getattr(self, weight) for weight in weights] for weights in self._all_weights]

    # -------------------------------------------------------------- the computation

    def _run(self, data, batch_sizes, hx, cx):
        """data: packed rows (sum(batch_sizes), input_size); hx/cx: (L*D, B, H) states.
        Returns (packed output rows, h_n, c_n)."""
        step = _STEPS[self.mode]
        num_directions = 2 if self.bidirectional else 1
        h_n, c_n = [], []
        layer_input = data
        for layer in range(self.num_layers):
            outs = []
            for direction in range(num_directions):
                suffix = "_reverse" if direction == 1 else ""
                w_ih = getattr(self, f"weight_ih_l{layer}{suffix}")
                w_hh = getattr(self, f"weight_hh_l{layer}{suffix}")
                b_ih = getattr(self, f"bias_ih_l{layer}{suffix}", None) if self.bias else None
                b_hh = getattr(self, f"bias_hh_l{layer}{suffix}", None) if self.bias else None
                w_hr = getattr(self, f"weight_hr_l{layer}{suffix}") if self.proj_size > 0 \
                    else None
                x_proj = F.linear(layer_input, w_ih, b_ih)
                k = layer * num_directions + direction
                out, h, c = _run_direction(step, x_proj, batch_sizes, hx[k],
                                           None if cx is None else cx[k], (w_hh, b_hh, w_hr),
                                           direction == 1)
                outs.append(out)
                h_n.append(h)
                c_n.append(c)
            layer_input = outs[0] if num_directions == 1 else _ag.cat(outs, 1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_input = F.dropout(layer_input, self.dropout, True)
        return layer_input, _ag.stack(h_n), (_ag.stack(c_n) if cx is not None else None)

    def _forward_common(self, input, hx, name):
        orig_input = input
        is_lstm = self.mode == "LSTM"
        num_directions = 2 if self.bidirectional else 1
        real_hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        if isinstance(orig_input, PackedSequence):
            data, batch_sizes_t, sorted_indices, unsorted_indices = orig_input
            batch_sizes = np.asarray(batch_sizes_t.tolist(), dtype=np.int64)
            max_batch_size = int(batch_sizes[0])
            is_batched = True
            if hx is not None:
                hx = self.permute_hidden(hx, sorted_indices)
            self.check_input(data, batch_sizes)
        else:
            batch_sizes = None
            if input.dim() not in (2, 3):
                if name == "RNN":
                    raise ValueError(f"RNN: Expected input to be 2D or 3D, got {input.dim()}D "
                                     "tensor instead")
                raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D "
                                 "instead")
            is_batched = input.dim() == 3
            batch_dim = 0 if self.batch_first else 1
            if not is_batched:
                input = input.unsqueeze(batch_dim)
                if hx is not None:
                    if is_lstm:
                        if hx[0].dim() != 2 or hx[1].dim() != 2:
                            raise RuntimeError(
                                f"For unbatched 2-D input, hx and cx should also be 2-D but got "
                                f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
                        hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
                    else:
                        if hx.dim() != 2:
                            raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D "
                                               f"but got {hx.dim()}-D tensor")
                        hx = hx.unsqueeze(1)
            elif hx is not None:
                if is_lstm:
                    if hx[0].dim() != 3 or hx[1].dim() != 3:
                        raise RuntimeError(
                            f"For batched 3-D input, hx and cx should also be 3-D but got "
                            f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
                elif hx.dim() != 3:
                    raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got "
                                       f"{hx.dim()}-D tensor")
            max_batch_size = input.size(0) if self.batch_first else input.size(1)
            sorted_indices = unsorted_indices = None
            self.check_input(input, None)
        dtype = (data if batch_sizes is not None else input).dtype
        if hx is None:
            h0 = _ag.zeros(self.num_layers * num_directions, max_batch_size, real_hidden,
                           dtype=dtype)
            if is_lstm:
                c0 = _ag.zeros(self.num_layers * num_directions, max_batch_size,
                               self.hidden_size, dtype=dtype)
                hx = (h0, c0)
            else:
                hx = h0
        ref = data if batch_sizes is not None else input
        if is_lstm:
            self.check_hidden_size(hx[0], self.get_expected_hidden_size(ref, batch_sizes),
                                   "Expected hidden[0] size {}, got {}")
            expected_c = (self.num_layers * num_directions,
                          max_batch_size, self.hidden_size)
            self.check_hidden_size(hx[1], expected_c, "Expected hidden[1] size {}, got {}")
            h0, c0 = hx
        else:
            self.check_hidden_size(hx, self.get_expected_hidden_size(ref, batch_sizes))
            h0, c0 = hx, None
        if batch_sizes is None:
            x = input.transpose(0, 1) if self.batch_first else input
            t_len, b = x.shape[0], x.shape[1]
            rows = x.reshape(t_len * b, x.shape[2])
            out_rows, h_n, c_n = self._run(rows, np.full(t_len, b, dtype=np.int64), h0, c0)
            output = out_rows.reshape(t_len, b, out_rows.shape[-1])
            if self.batch_first:
                output = output.transpose(0, 1)
            if not is_batched:
                output = output.squeeze(0 if self.batch_first else 1)
                h_n = h_n.squeeze(1)
                c_n = c_n.squeeze(1) if c_n is not None else None
            hidden = (h_n, c_n) if is_lstm else h_n
            return output, hidden
        out_rows, h_n, c_n = self._run(data, batch_sizes, h0, c0)
        output = PackedSequence(out_rows, batch_sizes_t, sorted_indices, unsorted_indices)
        hidden = (h_n, c_n) if is_lstm else h_n
        return output, self.permute_hidden(hidden, unsorted_indices)


class RNN(RNNBase):
    """Elman RNN: h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh) (or relu)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or "
                             "'relu'.")
        super().__init__(mode, *args, **kwargs)

    def forward(self, input, hx=None):
        return self._forward_common(input, hx, "RNN")


class LSTM(RNNBase):
    """Long short-term memory (optionally with projections of size proj_size)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        return (self.num_layers * num_directions, mini_batch, self.hidden_size)

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return _apply_permutation(hx[0], permutation), _apply_permutation(hx[1], permutation)

    def forward(self, input, hx=None):
        return self._forward_common(input, hx, "LSTM")


class GRU(RNNBase):
    """Gated recurrent unit."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        return self._forward_common(input, hx, "GRU")


class RNNCellBase(Module):
    """Parameters of a single recurrent cell (num_chunks gates of size hidden_size)."""

    __constants__ = ["input_size", "hidden_size", "bias"]

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(_ag.empty((num_chunks * hidden_size, input_size),
                                             dtype=dtype))
        self.weight_hh = Parameter(_ag.empty((num_chunks * hidden_size, hidden_size),
                                             dtype=dtype))
        if bias:
            self.bias_ih = Parameter(_ag.empty(num_chunks * hidden_size, dtype=dtype))
            self.bias_hh = Parameter(_ag.empty(num_chunks * hidden_size, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _batch_input_and_hidden(self, name, input, hx):
        """RNNCell's and GRUCell's input and hidden state as batches (zeros for a missing
        hx), and whether the input was batched."""
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D "
                             "instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = _ag.zeros(input.size(0), self.hidden_size, dtype=input.dtype)
        elif not is_batched:
            hx = hx.unsqueeze(0)
        return input, hx, is_batched


class RNNCell(RNNCellBase):
    """One Elman RNN step."""

    __constants__ = ["input_size", "hidden_size", "bias", "nonlinearity"]

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None,
                 dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        input, hx, is_batched = self._batch_input_and_hidden("RNNCell", input, hx)
        if self.nonlinearity == "tanh":
            act = _ag.tanh
        elif self.nonlinearity == "relu":
            act = _ag.relu
        else:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        ret, _ = _rnn_step(act)(F.linear(input, self.weight_ih, self.bias_ih), hx, None,
                                self.weight_hh, self.bias_hh, None)
        return ret if is_batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step: returns (h', c')."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, dtype=dtype)

    def forward(self, input, hx=None):
        if input.dim() not in (1, 2):
            raise ValueError(f"LSTMCell: Expected input to be 1D or 2D, got {input.dim()}D "
                             "instead")
        if hx is not None:
            for idx, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError(f"LSTMCell: Expected hx[{idx}] to be 1D or 2D, got "
                                     f"{value.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = _ag.zeros(input.size(0), self.hidden_size, dtype=input.dtype)
            hx = (zeros, zeros)
        elif not is_batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        h, c = _lstm_step(F.linear(input, self.weight_ih, self.bias_ih), hx[0], hx[1],
                          self.weight_hh, self.bias_hh, None)
        return (h, c) if is_batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """One GRU step."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, dtype=dtype)

    def forward(self, input, hx=None):
        input, hx, is_batched = self._batch_input_and_hidden("GRUCell", input, hx)
        h, _ = _gru_step(F.linear(input, self.weight_ih, self.bias_ih), hx, None,
                         self.weight_hh, self.bias_hh, None)
        return h if is_batched else h.squeeze(0)
