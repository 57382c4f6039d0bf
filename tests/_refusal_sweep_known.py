"""The refusals of tests/test_unsigned.py::test_refusal_messages that still differ from
PyTorch's (strict xfails): form -> PyTorch's words and ours, as the comparison found them
when this list was written. A fix that makes a form match fails its xfail until its
entry goes. What remains: argument-parser errors whose words differ between PyTorch's
Tensor method and its function, which share one wrapper here (argsort's .stable
overload given dim positionally; index_put's None index, which PyTorch's parser
refuses before the dtype, as 'argument 0' for the method)."""
KNOWN = {
    'argsort.stable_positional_dim[0]/complex64':
        'PyTorch TypeError: argsort() received an invalid combination of arguments - got (int, stable=bool), but expec | ours TypeError: argsort() takes from 1 to 0 positional arguments but 1 were given',
    'argsort.stable_positional_dim[0]/uint16':
        'PyTorch TypeError: argsort() received an invalid combination of arguments - got (int, stable=bool), but expec | ours TypeError: argsort() takes from 1 to 0 positional arguments but 1 were given',
    'argsort.stable_positional_dim[0]/uint32':
        'PyTorch TypeError: argsort() received an invalid combination of arguments - got (int, stable=bool), but expec | ours TypeError: argsort() takes from 1 to 0 positional arguments but 1 were given',
    'argsort.stable_positional_dim[0]/uint64':
        'PyTorch TypeError: argsort() received an invalid combination of arguments - got (int, stable=bool), but expec | ours TypeError: argsort() takes from 1 to 0 positional arguments but 1 were given',
    'index_put.none_error[0]/complex64':
        'PyTorch TypeError: expected Tensor as element 0 in argument 0, but got NoneType | ours TypeError: expected Tensor as element 0 in argument 1, but got NoneType',
    'index_put.none_error[0]/uint16':
        'PyTorch TypeError: expected Tensor as element 0 in argument 0, but got NoneType | ours NotImplementedError: "index_put" not implemented for \'UInt16\'',
    'index_put.none_error[0]/uint32':
        'PyTorch TypeError: expected Tensor as element 0 in argument 0, but got NoneType | ours NotImplementedError: "index_put" not implemented for \'UInt32\'',
    'index_put.none_error[0]/uint64':
        'PyTorch TypeError: expected Tensor as element 0 in argument 0, but got NoneType | ours NotImplementedError: "index_put" not implemented for \'UInt64\'',
}
