#include <lcms2.h>

// lcms2's pixel-format constants are macros built from other macros, which Swift does not
// import: the ones Cascade uses, as functions.
static inline cmsUInt32Number cascade_lcms_BGRA_8(void) { return TYPE_BGRA_8; }
static inline cmsUInt32Number cascade_lcms_ARGB_8(void) { return TYPE_ARGB_8; }
static inline cmsUInt32Number cascade_lcms_RGB_8(void) { return TYPE_RGB_8; }
static inline cmsUInt32Number cascade_lcms_no_cache(void) { return cmsFLAGS_NOCACHE; }
static inline cmsUInt32Number cascade_lcms_GRAY_8(void) { return TYPE_GRAY_8; }
static inline cmsUInt32Number cascade_lcms_CMYK_8(void) { return TYPE_CMYK_8; }
static inline cmsUInt32Number cascade_lcms_RGB_DBL(void) { return TYPE_RGB_DBL; }
