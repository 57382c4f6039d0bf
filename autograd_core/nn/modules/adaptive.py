"""AdaptiveLogSoftmaxWithLoss (Grave et al.'s efficient softmax approximation)."""
from collections import namedtuple

import numpy as np

import autograd_core as _ag
from autograd_core.nn import functional as F
from autograd_core.nn.modules.container import ModuleList, Sequential
from autograd_core.nn.modules.linear import Linear
from autograd_core.nn.modules.module import Module

__all__ = ["AdaptiveLogSoftmaxWithLoss"]

_ASMoutput = namedtuple("_ASMoutput", ["output", "loss"])


def _long(a):
    return _ag.tensor(np.asarray(a, dtype=np.int64))


class AdaptiveLogSoftmaxWithLoss(Module):
    """A head over the frequent classes plus one cluster token per tail cluster, each tail
    cluster a two-layer projection of size in_features // div_value**(i+1)."""

    def __init__(self, in_features, n_classes, cutoffs, div_value=4.0, head_bias=False,
                 device=None, dtype=None):
        super().__init__()
        cutoffs = list(cutoffs)
        if len(cutoffs) == 0:
            raise ValueError("cutoffs should be a sequence of length larger than 0")
        if (cutoffs != sorted(cutoffs) or min(cutoffs) <= 0 or max(cutoffs) > n_classes - 1
                or len(set(cutoffs)) != len(cutoffs) or any(int(c) != c for c in cutoffs)):
            raise ValueError("cutoffs should be a sequence of unique, positive integers sorted "
                             "in an increasing order, where each value is between 1 and "
                             "n_classes-1")
        self.in_features = in_features
        self.n_classes = n_classes
        self.cutoffs = cutoffs + [n_classes]
        self.div_value = div_value
        self.head_bias = head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head = Linear(self.in_features, self.head_size, bias=self.head_bias, dtype=dtype)
        self.tail = ModuleList()
        for i in range(self.n_clusters):
            hsz = int(self.in_features // self.div_value ** (i + 1))
            osz = self.cutoffs[i + 1] - self.cutoffs[i]
            self.tail.append(Sequential(Linear(self.in_features, hsz, bias=False, dtype=dtype),
                                        Linear(hsz, osz, bias=False, dtype=dtype)))

    def reset_parameters(self):
        self.head.reset_parameters()
        for i2h, h2o in self.tail:
            i2h.reset_parameters()
            h2o.reset_parameters()

    def forward(self, input_, target_):
        targ_dim = target_.dim()
        if targ_dim == 1:
            if input_.size(0) != target_.size(0):
                raise RuntimeError("Input and target should have the same size in the batch "
                                   "dimension.")
            if input_.dim() != 2:
                raise RuntimeError(f"1D target tensor expects 2D input tensors, but found inputs "
                                   f"with size {input_.size()}")
        elif targ_dim == 0:
            if input_.dim() != 1:
                raise RuntimeError(f"0D target tensor expects 1D input tensors, but found inputs "
                                   f"with size {input_.size()}")
        else:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        is_batched = targ_dim > 0
        input = input_ if is_batched else input_.unsqueeze(0)
        target = target_ if is_batched else target_.unsqueeze(0)
        t = np.asarray(target.tolist(), dtype=np.int64).reshape(-1)
        batch_size = t.size
        gather_inds = np.zeros(batch_size, dtype=np.int64)
        rows_seen, pieces = [], []
        bounds = [0] + self.cutoffs
        used_rows = 0
        for i in range(len(bounds) - 1):
            low, high = bounds[i], bounds[i + 1]
            rows = np.nonzero((t >= low) & (t < high))[0]
            if rows.size == 0:
                continue
            if i == 0:
                gather_inds[rows] = t[rows]
                pieces.append(_ag.zeros(rows.size, dtype=input.dtype))
            else:
                cluster_output = self.tail[i - 1](input.index_select(0, _long(rows)))
                gather_inds[rows] = self.shortlist_size + i - 1
                cluster_logprob = F.log_softmax(cluster_output, dim=1)
                local = cluster_logprob.gather(1, _long(t[rows] - low).unsqueeze(1))
                pieces.append(local.squeeze(1))
            rows_seen.append(rows)
            used_rows += rows.size
        if used_rows != batch_size:
            raise RuntimeError(f"Target values should be in [0, {self.n_classes - 1}], but "
                               f"values in range [{t.min()}, {t.max()}] were found. ")
        order = np.concatenate(rows_seen)
        inverse = np.empty_like(order)
        inverse[order] = np.arange(order.size)
        output = _ag.cat(pieces).index_select(0, _long(inverse))
        head_logprob = F.log_softmax(self.head(input), dim=1)
        output = output + head_logprob.gather(1, _long(gather_inds).unsqueeze(1)).squeeze()
        loss = (-output).mean()
        if not is_batched:
            output = output.squeeze(0)
        return _ASMoutput(output, loss)

    def _get_full_log_prob(self, input, head_output):
        head_logprob = F.log_softmax(head_output, dim=1)
        parts = [head_logprob[:, :self.shortlist_size]]
        for i in range(len(self.cutoffs) - 1):
            cluster_logprob = F.log_softmax(self.tail[i](input), dim=1)
            parts.append(cluster_logprob
                         + head_logprob[:, self.shortlist_size + i].unsqueeze(1))
        return _ag.cat(parts, 1)

    def log_prob(self, input):
        """Log-probabilities of all n_classes classes, (N, n_classes)."""
        return self._get_full_log_prob(input, self.head(input))

    def predict(self, input):
        """The most likely class of each row (the tail computed only where needed)."""
        head_output = self.head(input)
        output = _ag.argmax(head_output, dim=1)
        not_in_shortlist = output >= self.shortlist_size
        if not bool(not_in_shortlist.any()):
            return output
        if bool(not_in_shortlist.all()):
            return _ag.argmax(self._get_full_log_prob(input, head_output), dim=1)
        rows = _long(np.nonzero(np.asarray(not_in_shortlist.tolist()))[0])
        log_prob = self._get_full_log_prob(input.index_select(0, rows),
                                           head_output.index_select(0, rows))
        full = output.clone()
        full[rows] = _ag.argmax(log_prob, dim=1)
        return full
