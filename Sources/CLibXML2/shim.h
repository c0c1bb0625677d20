#pragma once
/* Debian builds libxml2 with ICU, so <libxml/encoding.h> would include the system's ICU headers,
   whose UErrorCode clashes with the one Foundation's _FoundationICU module defines in any module that
   sees both. Nothing here uses ICU: the only struct it changes (xmlCharEncodingHandler, two pointers
   fewer) is reached through pointers only, never allocated or read from Swift. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>

/* XML_SAX2_MAGIC (0xDEEDBEAF) does not fit the Int32 Swift would import the macro as. */
static inline unsigned int healthbroker_xml_sax2_magic(void) {
    return XML_SAX2_MAGIC;
}
