/**
 * The Python interpreter that runs task harnesses and sandbox programs. Debian's python3 has
 * the ML stack here (the python3 first on PATH may not); the GPU devcontainer points
 * OPENMLE_PYTHON at its CUDA-enabled virtualenv.
 */
export function pythonPath(): string {
  return process.env.OPENMLE_PYTHON || "/usr/bin/python3";
}
