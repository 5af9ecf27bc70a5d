/* ledger.c — reads ledger lines. */
#ifndef LEDGER_C
#define LEDGER_C

#include <stdio.h>
#include <stdlib.h>
#include "ledger.h"

#define MAX_LINE 1024
#define MIN(a, b) ((a) < (b) ? (a) : (b))

/* One parsed entry. */
struct entry {
    char date[11];
    long cents;
    struct entry *next;
};

typedef struct {
    struct entry *head;
    size_t count;
} ledger_t;

typedef enum { OK = 0, ERR_FORMAT, ERR_IO } status;

typedef int (*visit_fn)(const struct entry *e, void *arg);

static int verbose = 0;
const char *ledger_version = "1.2";

int ledger_count(const ledger_t *l);

/*
 * parse_line reads "YYYY-MM-DD cents" into out.
 */
static status parse_line(const char *s, struct entry *out)
{
    if (sscanf(s, "%10s %ld", out->date, &out->cents) != 2)
        return ERR_FORMAT;
    out->next = NULL;
    return OK;
}

// ledger_read reads every line of f.
status ledger_read(FILE *f, ledger_t *l)
{
    char buf[MAX_LINE];
    while (fgets(buf, MIN(sizeof buf, MAX_LINE), f)) {
        struct entry *e = malloc(sizeof *e);
        if (!e || parse_line(buf, e) != OK) {
            free(e);
            return ERR_FORMAT;
        }
        e->next = l->head;
        l->head = e;
        l->count++;
        if (verbose)
            log_entry(e);
    }
    return OK;
}

int ledger_walk(ledger_t *l, visit_fn visit, void *arg)
{
    for (struct entry *e = l->head; e; e = e->next)
        if (visit(e, arg))
            return 1;
    return 0;
}

#endif /* LEDGER_C */
