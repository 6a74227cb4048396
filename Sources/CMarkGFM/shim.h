// GitHub's CommonMark implementation and its GFM extensions (tables, strikethrough, autolinks).
// Debian's libcmark-gfm.pc names both libraries; the extensions have no .pc file of their own.
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
