#ifndef FLYTRACKER_CRTLSDR_SHIM_H
#define FLYTRACKER_CRTLSDR_SHIM_H
#include <rtl-sdr.h>
#endif
