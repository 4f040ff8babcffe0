// ImageMagick's MagickWand C API (Debian: libmagickwand-6.q16-dev), the image library that
// validates and re-encodes user pictures (`Images`).
#include <wand/MagickWand.h>
