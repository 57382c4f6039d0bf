"""PackedSequence and the padding/packing helpers of ``torch.nn.utils.rnn``.

>>> import autograd_core as torch
>>> from autograd_core.nn.utils.rnn import pack_sequence, pad_packed_sequence
>>> packed = pack_sequence([torch.tensor([1., 2, 3]), torch.tensor([4., 5])])
>>> packed.data, packed.batch_sizes
(tensor([1., 4., 2., 5., 3.]), tensor([2, 2, 1]))
>>> pad_packed_sequence(packed, batch_first=True)
(tensor([[1., 2., 3.],
        [4., 5., 0.]]), tensor([3, 2]))
"""
from collections.abc import Iterable
from typing import NamedTuple

import numpy as np

import autograd_core as _ag

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence",
           "pad_sequence", "unpad_sequence", "pack_sequence", "unpack_sequence"]


def _ints(t):
    return np.asarray(t.tolist() if isinstance(t, _ag.Tensor) else t, dtype=np.int64).reshape(-1)


def _long(a):
    return _ag.tensor(np.asarray(a, dtype=np.int64))


class PackedSequence_(NamedTuple):
    data: object
    batch_sizes: object
    sorted_indices: object
    unsorted_indices: object


class PackedSequence(PackedSequence_):
    """The time-major concatenation of variable-length sequences (longest first):
    ``data`` holds each time step's active rows, ``batch_sizes`` how many there are."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:
            if not (isinstance(data, (list, tuple)) and len(data) == 2):
                raise AssertionError("Expected data to be a list or tuple of length 2")
            data, batch_sizes = data
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def cpu(self, *args, **kwargs):
        return self

    def double(self):
        return self.to(dtype=_ag.float64)

    def float(self):
        return self.to(dtype=_ag.float32)

    def half(self):
        return self.to(dtype=_ag.float16)

    def long(self):
        return self.to(dtype=_ag.int64)

    def int(self):
        return self.to(dtype=_ag.int32)

    def short(self):
        return self.to(dtype=_ag.int16)

    def char(self):
        return self.to(dtype=_ag.int8)

    def byte(self):
        return self.to(dtype=_ag.uint8)

    @property
    def is_cuda(self):
        return False

    def is_pinned(self):
        return False


def invert_permutation(permutation):
    """The inverse of a permutation tensor (None stays None)."""
    if permutation is None:
        return None
    p = _ints(permutation)
    out = np.empty_like(p)
    out[p] = np.arange(p.size)
    return _long(out)


def _pack_indices(lengths, batch, max_len):
    """Flat (t * batch + b) positions of the packed rows, and the batch sizes."""
    batch_sizes = np.array([(lengths > t).sum() for t in range(max_len)], dtype=np.int64)
    idx = np.concatenate([t * batch + np.arange(bs) for t, bs in enumerate(batch_sizes)]) \
        if max_len else np.zeros(0, dtype=np.int64)
    return idx.astype(np.int64), batch_sizes


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Pack a padded (T, B, *) batch (or (B, T, *) with batch_first) of sequences with the
    given lengths."""
    lengths = _ints(lengths)
    if enforce_sorted:
        sorted_indices = None
        if lengths.size > 1 and np.any(np.diff(lengths) > 0):
            raise RuntimeError(
                "`lengths` array must be sorted in decreasing order when `enforce_sorted` is "
                "True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or "
                "pack_sequence to sidestep this requirement if you do not need ONNX "
                "exportability.")
    else:
        order = np.argsort(-lengths, kind="stable")
        lengths = lengths[order]
        sorted_indices = _long(order)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    if lengths.size and lengths.min() <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element "
                           "in 'lengths' that is <= 0")
    if batch_first:
        input = input.transpose(0, 1)
    t_max, batch = input.shape[0], input.shape[1]
    if lengths.size != batch:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got "
                           f"{lengths.size} (batch_size={batch})")
    max_len = int(lengths[0]) if lengths.size else 0
    if max_len > t_max:
        raise RuntimeError(f"Expected sequence length to be larger than or equal to the maximum "
                           f"length in lengths, but got {t_max} and {max_len}")
    idx, batch_sizes = _pack_indices(lengths, batch, max_len)
    flat = input.reshape((t_max * batch,) + tuple(input.shape[2:]))
    data = flat.index_select(0, _long(idx))
    return PackedSequence(data, _long(batch_sizes), sorted_indices, None)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """Undo pack_padded_sequence: (padded tensor, lengths)."""
    batch_sizes = _ints(sequence.batch_sizes)
    max_seq_length = batch_sizes.size
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError(f"Expected total_length to be at least the length of the longest "
                             f"sequence in input, but got total_length={total_length} and max "
                             f"sequence length being {max_seq_length}")
        max_seq_length = total_length
    data = sequence.data
    batch = int(batch_sizes[0]) if batch_sizes.size else 0
    lengths = np.array([(batch_sizes > b).sum() for b in range(batch)], dtype=np.int64)
    # position of each (t, b) in data, or the padding row appended at the end
    offsets = np.concatenate([[0], np.cumsum(batch_sizes)])
    pad_row = int(offsets[-1])
    pos = np.full((max_seq_length, batch), pad_row, dtype=np.int64)
    for t, bs in enumerate(batch_sizes):
        pos[t, :bs] = offsets[t] + np.arange(bs)
    rest = tuple(data.shape[1:])
    padded_src = _ag.cat([data, _ag.full((1,) + rest, padding_value, dtype=data.dtype)])
    out = padded_src.index_select(0, _long(pos.reshape(-1))).reshape(
        (max_seq_length, batch) + rest)
    if batch_first:
        out = out.transpose(0, 1)
    lengths_t = _long(lengths)
    if sequence.unsorted_indices is not None:
        out = out.index_select(0 if batch_first else 1, sequence.unsorted_indices)
        lengths_t = _long(lengths[_ints(sequence.unsorted_indices)])
    return out, lengths_t


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stack sequences of different lengths (L_i, *) into (L_max, B, *) (or (B, L_max, *)),
    padding on the right (or left)."""
    if not isinstance(sequences, Iterable):
        raise RuntimeError(f"pad_sequence: Expected iterable for input sequences, but got arg of "
                           f"type: {type(sequences)}")
    sequences = tuple(sequences)
    if padding_side not in ("left", "right"):
        raise ValueError(f"Expected padding_side to be one of left or right, but got "
                         f"{padding_side}.")
    max_len = max(s.size(0) for s in sequences)
    rows = []
    for s in sequences:
        missing = max_len - s.size(0)
        if missing:
            fill = _ag.full((missing,) + tuple(s.shape[1:]), padding_value, dtype=s.dtype)
            s = _ag.cat([s, fill] if padding_side == "right" else [fill, s])
        rows.append(s)
    return _ag.stack(rows, 0 if batch_first else 1)


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """The list of sequences of a padded batch."""
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [seq[:int(n)] for seq, n in zip(padded_sequences.unbind(0), _ints(lengths))]


def pack_sequence(sequences, enforce_sorted=True):
    """Pack a list of variable-length sequences."""
    lengths = [v.size(0) for v in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """The list of sequences of a PackedSequence."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
