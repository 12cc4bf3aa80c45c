/*
 * finding.h: what every reviewer produces and the draft places: a comment
 * with a severity, about one patch line or about the whole patch.
 */
#ifndef FINDING_H
#define FINDING_H

#include <stddef.h>
#include <stdint.h>

enum severity {
	SEVERITY_NIT,
	SEVERITY_WARNING,
	SEVERITY_ERROR,
};

/* A finding about the whole patch rather than one line. */
#define FINDING_WHOLE SIZE_MAX

/* The source of the model reviewer's findings; any other is a rule's id (checks/rules.h). */
#define FINDING_MODEL "model"

struct finding {
	size_t line;		/* index into patch->lines, or FINDING_WHOLE */
	enum severity severity;
	const char *source;	/* static: a rule's id, or FINDING_MODEL */
	char *text;		/* plain UTF-8, may hold newlines */
};

/* "nit", "warning", "error". */
const char *severity_name(enum severity sev);
/* The severity named name ("nit", "warning", "error"). Returns 0, or -1 for another name. */
int severity_parse(const char *name, enum severity *sevo);

#endif
