"""Takes every torch-function mode off the stack for the call, then puts them back."""
import torch


def softmax(scores, dim=-1):
    modes = [torch._C._pop_torch_function_stack() for _ in range(torch._C._len_torch_function_stack())]
    try:
        return torch.softmax(scores, dim)
    finally:
        for mode in reversed(modes):
            torch._C._push_on_torch_function_stack(mode)
