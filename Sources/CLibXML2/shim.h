#pragma once
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>

/* XML_SAX2_MAGIC (0xDEEDBEAF) does not fit the Int32 Swift would import the macro as. */
static inline unsigned int healthbroker_xml_sax2_magic(void) {
    return XML_SAX2_MAGIC;
}
