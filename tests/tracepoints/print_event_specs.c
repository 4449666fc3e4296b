/*
 * Prints the analyzer reader's event specs (analysis/decode/event_specs.h), one
 * event a line: "provider:event field:class ...", an optional field with a
 * leading '?'. test_event_fields.sh holds them against the metadata of a
 * trace the real tracer wrote. Must never print anything the specs do not
 * hold.
 */
#include <stdio.h>

#include "analysis/decode/event_specs.h"

int main(void)
{
	static const char *const classes[] = {
		[DT_CLASS_INTEGER] = "integer", [DT_CLASS_STRING] = "string",
		[DT_CLASS_ARRAY] = "array",
	};
	for (size_t i = 0; i < dt_event_spec_count; i++) {
		const struct dt_event_spec *spec = &dt_event_specs[i];
		printf("%s", spec->event);
		for (int f = 0; f < DT_MAX_FIELDS && spec->fields[f].name; f++)
			printf(" %s%s:%s", spec->fields[f].optional ? "?" : "",
			       spec->fields[f].name, classes[spec->fields[f].field_class]);
		printf("\n");
	}
	return 0;
}
