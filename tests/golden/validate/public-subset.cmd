# Public accuracy set (validation/public), the two laplace_vector kernels only: rows carry their source
# and the summary ends with the per source / GPU / model breakdown ("by_source").
validate --corpus validation/public --experiment laplace_copy --experiment laplace_stencil --json
