// The few ImageMagick (MagickWand) operations FlyTracker needs, behind plain C types, so that
// Swift never imports ImageMagick's headers (which clash with Glibc's module over fd_set). The
// library is loaded at run time: without it every operation fails with -2 and a reason, and
// nothing else of FlyTracker needs it.
#ifndef FLYTRACKER_IMAGE_SHIM_H
#define FLYTRACKER_IMAGE_SHIM_H
#include <stddef.h>
#include <stdint.h>

/// Loads and starts ImageMagick once, with resource limits (memory and map 256 MiB, no disk, one
/// thread): 0, or -1 and why not (the library is not installed) in `error` (may be NULL).
int ft_image_start(char *error, size_t error_length);

/// Whether the library `soname` could be loaded with every function FlyTracker calls: 0, or -1
/// and why not. Loads nothing for later use (tests, diagnostics).
int ft_image_probe(const char *soname, char *error, size_t error_length);

/// Reads only the header of `data` as `coder` ("PNG", "JPEG", "WEBP"): 0 and the size, -1 and
/// a reason in `error`, or -2 when the image library is not installed.
int ft_image_ping(const uint8_t *data, size_t length, const char *coder, size_t *width, size_t *height,
                  char *error, size_t error_length);

/// Decodes `data` as `coder` (any warning refuses it), keeps the first frame, strips metadata,
/// scales it to fit `side`, encodes it in the same format (`quality` for JPEG/WebP): 0 and a
/// buffer to free with `ft_image_free`, -1 and a reason, or -2 (no image library).
int ft_image_reencode(const uint8_t *data, size_t length, const char *coder, size_t side, size_t quality,
                      uint8_t **out, size_t *out_length, size_t *width, size_t *height, char *error, size_t error_length);

void ft_image_free(void *buffer);

/// A gradient picture in `coder` with `comment` as metadata (tests): 0 and a buffer to free.
int ft_image_sample(const char *coder, size_t width, size_t height, const char *comment, uint8_t **out, size_t *out_length);

#endif
