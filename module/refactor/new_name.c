/* new_name.c - see new_name.h.
 *
 * NFKC comes from utf8proc (Debian libutf8proc-dev), so that eddi carries
 * no Unicode tables of its own. A name not in NFKC is refused rather than
 * normalised: normalising would write a spelling the user did not ask for,
 * and a name that reads as another one (ＶＡＬＵＥ as VALUE) is most likely
 * a mistake; the refusal names the form Python reads, so that the next try
 * is one step, and the clash checks then see the name Python sees. */
#include "refactor/new_name.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <utf8proc.h>

#include "core/utf8.h"

bool ref_new_name_matches(const char *pattern, const char *name) {
  int code;
  PCRE2_SIZE at;
  pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_UCP,
                                 &code, &at, NULL);
  if (!re) return false;
  pcre2_match_data *match = pcre2_match_data_create_from_pattern(re, NULL);
  bool found = pcre2_match(re, (PCRE2_SPTR)name, strlen(name), 0, 0, match, NULL) >= 0;
  pcre2_match_data_free(match);
  pcre2_code_free(re);
  return found;
}

static bool new_name__keyword(const EddiLang *lang, const char *name) {
  size_t n = strlen(name);
  for (const char *p = lang->keywords ? lang->keywords : ""; *p;) {
    while (*p == ' ') p++;
    const char *end = strchr(p, ' ');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == n && memcmp(p, name, n) == 0) return true;
    p += len;
  }
  return false;
}

/* Without an identifier_pattern: ASCII letters, digits and _, or any
 * character past ASCII; not a digit first. */
static bool new_name__plain_identifier(const char *name) {
  bool valid = !(name[0] >= '0' && name[0] <= '9');
  for (const char *p = name; *p && valid; p++) {
    unsigned char c = (unsigned char)*p;
    valid = c == '_' || c >= 0x80 || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z');
  }
  return valid;
}

/* A new string: name in NFKC, or NULL when it is already (or when utf8proc
 * cannot say: the other checks still run). */
static char *new_name__nfkc(const char *name) {
  utf8proc_uint8_t *normal = utf8proc_NFKC((const utf8proc_uint8_t *)name);
  if (!normal) return NULL;
  char *copy = strcmp((const char *)normal, name) != 0 ? eddi_strdup((const char *)normal) : NULL;
  free(normal); /* utf8proc allocates with malloc */
  return copy;
}

int ref_new_name_check(const EddiLang *lang, const char *title, const char *name,
                       const char *invalid_hint, EddiError *err) {
  size_t n = strlen(name);
  if (n > REF_NEW_NAME_MAX_BYTES) {
    eddi_error_set(err, EDDI_EINVAL, "New name is %zu bytes long, limit %d", n,
                   REF_NEW_NAME_MAX_BYTES);
    eddi_error_hint(err, "Choose a shorter name");
    return EDDI_EINVAL;
  }
  if (new_name__keyword(lang, name))
    return eddi_error_set(err, EDDI_EINVAL, "%s is a keyword in %s", name, title);
  char *normal = lang->identifier_nfkc && eddi_utf8_valid(name, n) ? new_name__nfkc(name) : NULL;
  if (normal) {
    eddi_error_set(err, EDDI_EINVAL, "%s is not in NFKC form: %s reads it as %s", name, title,
                   normal);
    eddi_error_hint(err, "Use %s", normal);
    eddi_free(normal);
    return EDDI_EINVAL;
  }
  bool valid = n > 0 && eddi_utf8_valid(name, n) &&
               (lang->identifier_pattern ? ref_new_name_matches(lang->identifier_pattern, name)
                                         : new_name__plain_identifier(name));
  if (!valid) {
    eddi_error_set(err, EDDI_EINVAL, "%s is not a valid name in %s", name, title);
    if (invalid_hint) eddi_error_hint(err, "%s", invalid_hint);
    return EDDI_EINVAL;
  }
  return 0;
}
