#include "image_shim.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <wand/MagickWand.h>

static pthread_once_t started = PTHREAD_ONCE_INIT;

static void start(void) {
    MagickWandGenesis();
    // Width, height and area generous enough that any header can be read (and refused with its
    // size by the caller); memory, map and disk stop a decode that goes wrong. No time limit:
    // ImageMagick 6 counts it from start-up and then aborts the process.
    SetMagickResourceLimit(WidthResource, (MagickSizeType)1 << 31);
    SetMagickResourceLimit(HeightResource, (MagickSizeType)1 << 31);
    SetMagickResourceLimit(AreaResource, (MagickSizeType)1 << 62);
    SetMagickResourceLimit(MemoryResource, 256 * 1024 * 1024);
    SetMagickResourceLimit(MapResource, 256 * 1024 * 1024);
    SetMagickResourceLimit(DiskResource, 0);
    SetMagickResourceLimit(ThreadResource, 1);
}

void ft_image_start(void) { pthread_once(&started, start); }

static void reason(MagickWand *wand, char *error, size_t error_length) {
    ExceptionType severity;
    char *message = MagickGetException(wand, &severity);
    snprintf(error, error_length, "%s", message && *message ? message : "unreadable");
    if (message) MagickRelinquishMemory(message);
}

/// The coder forced by a filename prefix ("png:upload"), so ImageMagick never guesses.
static void force(MagickWand *wand, const char *coder) {
    char name[32];
    snprintf(name, sizeof name, "%s:upload", coder);
    MagickSetFilename(wand, name);
}

int ft_image_ping(const uint8_t *data, size_t length, const char *coder, size_t *width, size_t *height,
                  char *error, size_t error_length) {
    ft_image_start();
    MagickWand *wand = NewMagickWand();
    if (!wand) { snprintf(error, error_length, "out of memory"); return -1; }
    force(wand, coder);
    int result = -1;
    if (MagickPingImageBlob(wand, data, length) == MagickTrue) {
        *width = MagickGetImageWidth(wand);
        *height = MagickGetImageHeight(wand);
        result = 0;
    } else {
        reason(wand, error, error_length);
    }
    DestroyMagickWand(wand);
    return result;
}

int ft_image_reencode(const uint8_t *data, size_t length, const char *coder, size_t side, size_t quality,
                      uint8_t **out, size_t *out_length, size_t *width, size_t *height, char *error, size_t error_length) {
    ft_image_start();
    MagickWand *wand = NewMagickWand();
    if (!wand) { snprintf(error, error_length, "out of memory"); return -1; }
    force(wand, coder);
    MagickBooleanType read = MagickReadImageBlob(wand, data, length);
    ExceptionType severity = UndefinedException;
    char *message = MagickGetException(wand, &severity);
    if (read != MagickTrue || severity != UndefinedException) {
        snprintf(error, error_length, "%s", message && *message ? message : "unreadable");
        if (message) MagickRelinquishMemory(message);
        DestroyMagickWand(wand);
        return -1;
    }
    if (message) MagickRelinquishMemory(message);
    while (MagickGetNumberImages(wand) > 1) {
        MagickSetIteratorIndex(wand, 1);
        MagickRemoveImage(wand);
    }
    MagickSetFirstIterator(wand);
    MagickStripImage(wand);
    size_t w = MagickGetImageWidth(wand), h = MagickGetImageHeight(wand);
    size_t longest = w > h ? w : h;
    if (longest > side) {
        size_t tw = (size_t)((double)w * side / longest + 0.5), th = (size_t)((double)h * side / longest + 0.5);
        MagickThumbnailImage(wand, tw ? tw : 1, th ? th : 1);
    }
    MagickSetImageFormat(wand, coder);
    if (strcmp(coder, "PNG") != 0) MagickSetImageCompressionQuality(wand, quality);
    size_t size = 0;
    unsigned char *blob = MagickGetImageBlob(wand, &size);
    if (!blob) { reason(wand, error, error_length); DestroyMagickWand(wand); return -1; }
    *out = malloc(size);
    if (!*out) { MagickRelinquishMemory(blob); DestroyMagickWand(wand); snprintf(error, error_length, "out of memory"); return -1; }
    memcpy(*out, blob, size);
    *out_length = size;
    *width = MagickGetImageWidth(wand);
    *height = MagickGetImageHeight(wand);
    MagickRelinquishMemory(blob);
    DestroyMagickWand(wand);
    return 0;
}

void ft_image_free(void *buffer) { free(buffer); }

int ft_image_sample(const char *coder, size_t width, size_t height, const char *comment, uint8_t **out, size_t *out_length) {
    ft_image_start();
    MagickWand *wand = NewMagickWand();
    if (!wand) return -1;
    MagickSetSize(wand, width, height);
    int result = -1;
    if (MagickReadImage(wand, "gradient:red-blue") == MagickTrue) {
        MagickCommentImage(wand, comment);
        MagickSetImageFormat(wand, coder);
        size_t size = 0;
        unsigned char *blob = MagickGetImageBlob(wand, &size);
        if (blob) {
            *out = malloc(size);
            if (*out) { memcpy(*out, blob, size); *out_length = size; result = 0; }
            MagickRelinquishMemory(blob);
        }
    }
    DestroyMagickWand(wand);
    return result;
}
