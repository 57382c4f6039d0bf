"""``torch.futures``: the part of PyTorch's ``Future`` that DDP communication hooks use.

A ``Future`` holds a value that becomes available later (here: the result of a
non-blocking collective, ``Work.get_future()``, or ``set_result``). ``then`` chains a
callback that receives the completed future; ``wait`` blocks until the value is there.

>>> import autograd_core as torch
>>> import autograd_core.futures
>>> fut = torch.futures.Future()
>>> doubled = fut.then(lambda f: f.value() * 2)
>>> fut.set_result(torch.tensor([1.0, 2.0]))
>>> doubled.wait()
tensor([2., 4.])
"""
__all__ = ["Future", "collect_all", "wait_all"]

_PENDING = object()


class Future:
    """A value available later. ``wait()`` returns it (raising the error it was set with),
    ``value()`` returns it once done, ``then(callback)`` returns a new future completed
    with ``callback(self)``, ``set_result``/``set_exception`` complete it.

    >>> import autograd_core as torch
    >>> import autograd_core.futures
    >>> fut = torch.futures.Future()
    >>> fut.done()
    False
    >>> fut.set_result(3)
    >>> fut.wait(), fut.done()
    (3, True)
    """

    def __init__(self, *, devices=None):
        self._value = _PENDING
        self._error = None
        self._callbacks = []
        self._waiter = None      # completes this future when called (e.g. waits for a Work)

    @classmethod
    def __class_getitem__(cls, item):
        return cls

    def done(self):
        """Whether the value (or an error) is set."""
        return self._value is not _PENDING or self._error is not None

    def _complete(self, value=_PENDING, error=None):
        if self._value is not _PENDING or self._error is not None:
            raise RuntimeError("Future can only be marked completed once.")
        self._value, self._error = value, error
        callbacks, self._callbacks = self._callbacks, []
        for cb in callbacks:
            cb(self)

    def set_result(self, result):
        """Complete the future with ``result`` and run the callbacks added so far."""
        self._complete(value=result)

    def set_exception(self, result):
        """Complete the future with an error that ``wait()`` and ``value()`` raise."""
        if not isinstance(result, BaseException):
            raise TypeError(f"{result} is of type {type(result)}, not an Exception.")
        self._complete(error=result)

    def wait(self):
        """Block until the future is done and return its value."""
        if not self.done() and self._waiter is not None:
            self._waiter()
        if not self.done():
            raise RuntimeError("Future.wait() on a future that nothing will complete "
                               "(set_result was never called)")
        return self.value()

    def value(self):
        """The value of a completed future (raising the error it was set with)."""
        if self._error is not None:
            raise self._error
        if self._value is _PENDING:
            raise RuntimeError("Future.value() called before the future completed")
        return self._value

    def add_done_callback(self, callback):
        """Run ``callback(self)`` once the future is done (now, if it already is)."""
        if self.done():
            callback(self)
        else:
            self._callbacks.append(callback)

    def then(self, callback):
        """A new future completed with ``callback(self)`` when this one completes (with
        a RuntimeError naming the callback's error, if it raises)."""
        child = Future()
        child._waiter = self.wait if self._waiter is not None else None

        def run(parent):
            try:
                child.set_result(callback(parent))
            except Exception as e:  # noqa: BLE001 - the error travels in the future
                # PyTorch's wrapping of a failed callback
                child.set_exception(RuntimeError(
                    "Got the following error when running the callback: "
                    f"{type(e).__name__}: {e}"))

        self.add_done_callback(run)
        return child


def collect_all(futures):
    """A future completed with the list of ``futures`` once all of them are done."""
    futures = list(futures)
    out = Future()

    def wait_each():
        for f in futures:
            f.wait()
        if not out.done():
            out.set_result(futures)

    out._waiter = wait_each
    if all(f.done() for f in futures):
        out.set_result(futures)
    return out


def wait_all(futures):
    """Wait for every future and return their values."""
    return [f.wait() for f in futures]
