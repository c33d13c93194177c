"""tangentlike: source-to-source reverse-mode automatic differentiation for Python and NumPy.

import tangentlike as tl
df = tl.grad(f, wrt=0)
print(df.source)
"""

__version__ = "0.1.0"

from .api import Stats, adjoint, differentiable, grad, source, value_and_grad, vjp
from .api_forward import jacobian, jvp
from .checkpoint import Binomial, FixedInterval, checkpoint, checkpointed
from .errors import (
    CheckError,
    NonScalarOutputError,
    RuleError,
    SourceChangedError,
    SourceNotFoundError,
    TangentlikeError,
    UnknownFunctionError,
    UnsupportedSyntaxError,
    WrtError,
)
from .higher.api import hessian, hvp
from .rules.template import d
from .runtime import stop_gradient

__all__ = [
    "Binomial",
    "CheckError",
    "FixedInterval",
    "NonScalarOutputError",
    "RuleError",
    "SourceChangedError",
    "SourceNotFoundError",
    "Stats",
    "TangentlikeError",
    "UnknownFunctionError",
    "UnsupportedSyntaxError",
    "WrtError",
    "adjoint",
    "checkpoint",
    "checkpointed",
    "d",
    "differentiable",
    "grad",
    "hessian",
    "hvp",
    "jacobian",
    "jvp",
    "source",
    "stop_gradient",
    "value_and_grad",
    "vjp",
]
