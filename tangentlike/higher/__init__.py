"""Derivatives of derivatives: the differentiable form of generated code, Hessian-vector
products and Hessians."""
