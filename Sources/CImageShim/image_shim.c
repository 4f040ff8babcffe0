#include "image_shim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ImageMagick 6's MagickWand, loaded at run time (dlopen), so that FlyTracker runs without it:
// pictures are then refused with a clear reason and everything else works (a Debian package
// installed without libmagickwand). Only the declarations the calls below need, as
// ImageMagick 6 defines them (wand/MagickWand.h, magick/resource_.h; stable since 6.8).
typedef struct _MagickWand MagickWand;
typedef int MagickBooleanType;             // MagickFalse = 0, MagickTrue = 1
typedef int ExceptionType;                 // UndefinedException = 0
typedef int ResourceType;
typedef unsigned long long MagickSizeType;
enum { MagickFalse = 0, MagickTrue = 1, UndefinedException = 0 };
enum { AreaResource = 1, DiskResource = 2, MapResource = 4, MemoryResource = 5, ThreadResource = 6,
       WidthResource = 9, HeightResource = 10 };

#define FT_MAGICK_FUNCTIONS(X) \
    X(void, MagickWandGenesis, (void)) \
    X(MagickBooleanType, SetMagickResourceLimit, (ResourceType, MagickSizeType)) \
    X(MagickWand *, NewMagickWand, (void)) \
    X(MagickWand *, DestroyMagickWand, (MagickWand *)) \
    X(char *, MagickGetException, (const MagickWand *, ExceptionType *)) \
    X(void *, MagickRelinquishMemory, (void *)) \
    X(MagickBooleanType, MagickSetFilename, (MagickWand *, const char *)) \
    X(MagickBooleanType, MagickPingImageBlob, (MagickWand *, const void *, size_t)) \
    X(MagickBooleanType, MagickReadImageBlob, (MagickWand *, const void *, size_t)) \
    X(MagickBooleanType, MagickReadImage, (MagickWand *, const char *)) \
    X(size_t, MagickGetImageWidth, (MagickWand *)) \
    X(size_t, MagickGetImageHeight, (MagickWand *)) \
    X(size_t, MagickGetNumberImages, (MagickWand *)) \
    X(MagickBooleanType, MagickSetIteratorIndex, (MagickWand *, ssize_t)) \
    X(MagickBooleanType, MagickRemoveImage, (MagickWand *)) \
    X(void, MagickSetFirstIterator, (MagickWand *)) \
    X(MagickBooleanType, MagickStripImage, (MagickWand *)) \
    X(MagickBooleanType, MagickThumbnailImage, (MagickWand *, size_t, size_t)) \
    X(MagickBooleanType, MagickSetImageFormat, (MagickWand *, const char *)) \
    X(MagickBooleanType, MagickSetImageCompressionQuality, (MagickWand *, size_t)) \
    X(unsigned char *, MagickGetImageBlob, (MagickWand *, size_t *)) \
    X(MagickBooleanType, MagickSetSize, (MagickWand *, size_t, size_t)) \
    X(MagickBooleanType, MagickCommentImage, (MagickWand *, const char *))

struct magick {
#define FT_FIELD(ret, name, args) ret (*name) args;
    FT_MAGICK_FUNCTIONS(FT_FIELD)
#undef FT_FIELD
};

/// The library's sonames on Debian: bookworm's libmagickwand-6.q16-6, trixie's -7, and the
/// development link (libmagickwand-6.q16-dev), tried in that order.
static const char *const libraries[] = { "libMagickWand-6.Q16.so.6", "libMagickWand-6.Q16.so.7", "libMagickWand-6.Q16.so" };

/// Opens `soname` and resolves every function into `m`: 0, or -1 and a reason.
static int load(const char *soname, struct magick *m, char *error, size_t error_length) {
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(error, error_length, "pictures are off: the image library %s is not installed (Debian: apt-get install libmagickwand-6.q16-6, or -7 on trixie)", soname);
        return -1;
    }
#define FT_RESOLVE(ret, name, args) \
    if (!(*(void **)(&m->name) = dlsym(handle, #name))) { \
        snprintf(error, error_length, "pictures are off: %s has no %s", soname, #name); \
        dlclose(handle); \
        return -1; \
    }
    FT_MAGICK_FUNCTIONS(FT_RESOLVE)
#undef FT_RESOLVE
    return 0;
}

static pthread_once_t started = PTHREAD_ONCE_INIT;
static struct magick im;
static int available = 0;
static char unavailable[256] = "the image library was not started";

static void start(void) {
    int loaded = -1;
    for (size_t i = 0; i < sizeof libraries / sizeof libraries[0] && loaded != 0; i++) {
        loaded = load(libraries[i], &im, unavailable, sizeof unavailable);
    }
    if (loaded != 0) return;
    available = 1;
    im.MagickWandGenesis();
    // Width, height and area generous enough that any header can be read (and refused with its
    // size by the caller); memory, map and disk stop a decode that goes wrong. No time limit:
    // ImageMagick 6 counts it from start-up and then aborts the process.
    im.SetMagickResourceLimit(WidthResource, (MagickSizeType)1 << 31);
    im.SetMagickResourceLimit(HeightResource, (MagickSizeType)1 << 31);
    im.SetMagickResourceLimit(AreaResource, (MagickSizeType)1 << 62);
    im.SetMagickResourceLimit(MemoryResource, 256 * 1024 * 1024);
    im.SetMagickResourceLimit(MapResource, 256 * 1024 * 1024);
    im.SetMagickResourceLimit(DiskResource, 0);
    im.SetMagickResourceLimit(ThreadResource, 1);
}

int ft_image_start(char *error, size_t error_length) {
    pthread_once(&started, start);
    if (available) return 0;
    if (error && error_length) snprintf(error, error_length, "%s", unavailable);
    return -1;
}

int ft_image_probe(const char *soname, char *error, size_t error_length) {
    struct magick m;
    return load(soname, &m, error, error_length);
}

static void reason(MagickWand *wand, char *error, size_t error_length) {
    ExceptionType severity;
    char *message = im.MagickGetException(wand, &severity);
    snprintf(error, error_length, "%s", message && *message ? message : "unreadable");
    if (message) im.MagickRelinquishMemory(message);
}

/// The coder forced by a filename prefix ("png:upload"), so ImageMagick never guesses.
static void force(MagickWand *wand, const char *coder) {
    char name[32];
    snprintf(name, sizeof name, "%s:upload", coder);
    im.MagickSetFilename(wand, name);
}

int ft_image_ping(const uint8_t *data, size_t length, const char *coder, size_t *width, size_t *height,
                  char *error, size_t error_length) {
    if (ft_image_start(error, error_length) != 0) return -2;
    MagickWand *wand = im.NewMagickWand();
    if (!wand) { snprintf(error, error_length, "out of memory"); return -1; }
    force(wand, coder);
    int result = -1;
    if (im.MagickPingImageBlob(wand, data, length) == MagickTrue) {
        *width = im.MagickGetImageWidth(wand);
        *height = im.MagickGetImageHeight(wand);
        result = 0;
    } else {
        reason(wand, error, error_length);
    }
    im.DestroyMagickWand(wand);
    return result;
}

int ft_image_reencode(const uint8_t *data, size_t length, const char *coder, size_t side, size_t quality,
                      uint8_t **out, size_t *out_length, size_t *width, size_t *height, char *error, size_t error_length) {
    if (ft_image_start(error, error_length) != 0) return -2;
    MagickWand *wand = im.NewMagickWand();
    if (!wand) { snprintf(error, error_length, "out of memory"); return -1; }
    force(wand, coder);
    MagickBooleanType read = im.MagickReadImageBlob(wand, data, length);
    ExceptionType severity = UndefinedException;
    char *message = im.MagickGetException(wand, &severity);
    if (read != MagickTrue || severity != UndefinedException) {
        snprintf(error, error_length, "%s", message && *message ? message : "unreadable");
        if (message) im.MagickRelinquishMemory(message);
        im.DestroyMagickWand(wand);
        return -1;
    }
    if (message) im.MagickRelinquishMemory(message);
    while (im.MagickGetNumberImages(wand) > 1) {
        im.MagickSetIteratorIndex(wand, 1);
        im.MagickRemoveImage(wand);
    }
    im.MagickSetFirstIterator(wand);
    im.MagickStripImage(wand);
    size_t w = im.MagickGetImageWidth(wand), h = im.MagickGetImageHeight(wand);
    size_t longest = w > h ? w : h;
    if (longest > side) {
        size_t tw = (size_t)((double)w * side / longest + 0.5), th = (size_t)((double)h * side / longest + 0.5);
        im.MagickThumbnailImage(wand, tw ? tw : 1, th ? th : 1);
    }
    im.MagickSetImageFormat(wand, coder);
    if (strcmp(coder, "PNG") != 0) im.MagickSetImageCompressionQuality(wand, quality);
    size_t size = 0;
    unsigned char *blob = im.MagickGetImageBlob(wand, &size);
    if (!blob) { reason(wand, error, error_length); im.DestroyMagickWand(wand); return -1; }
    *out = malloc(size);
    if (!*out) { im.MagickRelinquishMemory(blob); im.DestroyMagickWand(wand); snprintf(error, error_length, "out of memory"); return -1; }
    memcpy(*out, blob, size);
    *out_length = size;
    *width = im.MagickGetImageWidth(wand);
    *height = im.MagickGetImageHeight(wand);
    im.MagickRelinquishMemory(blob);
    im.DestroyMagickWand(wand);
    return 0;
}

void ft_image_free(void *buffer) { free(buffer); }

int ft_image_sample(const char *coder, size_t width, size_t height, const char *comment, uint8_t **out, size_t *out_length) {
    if (ft_image_start(NULL, 0) != 0) return -1;
    MagickWand *wand = im.NewMagickWand();
    if (!wand) return -1;
    im.MagickSetSize(wand, width, height);
    int result = -1;
    if (im.MagickReadImage(wand, "gradient:red-blue") == MagickTrue) {
        im.MagickCommentImage(wand, comment);
        im.MagickSetImageFormat(wand, coder);
        size_t size = 0;
        unsigned char *blob = im.MagickGetImageBlob(wand, &size);
        if (blob) {
            *out = malloc(size);
            if (*out) { memcpy(*out, blob, size); *out_length = size; result = 0; }
            im.MagickRelinquishMemory(blob);
        }
    }
    im.DestroyMagickWand(wand);
    return result;
}
