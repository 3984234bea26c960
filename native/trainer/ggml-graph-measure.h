#pragma once

#include <cstddef>
#include <string>

#include "../ggml-library.h"

/**
 * What gallocr would allocate for `graph` (`bytes`), computed without allocating it, by an allocator of its own.
 * False, with ggml's message in `failure`, where ggml would have aborted the process instead: its graph allocator
 * holds at most 256 holes between live tensors (MAX_FREE_BLOCKS) and asserts past that. The measure runs only
 * ggml-alloc.c's C code, so ggml's abort callback can jump back out of it; the measuring allocator is thrown away.
 */
bool measureGraph(const GgmlLibrary& ggml, ggml_backend_buffer_type_t bufferType, ggml_cgraph* graph, size_t& bytes, std::string& failure);
