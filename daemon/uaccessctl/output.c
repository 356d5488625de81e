// SPDX-License-Identifier: GPL-2.0
/*
 * uaccessctl's shared output and plumbing, see output.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>
#include <systemd/sd-login.h>

#include "common/why.h"
#include "output.h"
#include "common/time.h"
#include "common/utf8.h"
#include "common/util.h"
#include "common/control.h"
#include "common/control_client.h"
#include "common/fields.h"

const struct uk_cli_sys uk_cli_sys_real = {
	.ctl_call = uk_ctl_call,
	.nl_open = uk_nl_open,
	.nl_close = uk_nl_close,
	.nl_get_status = uk_nl_get_status,
	.nl_reset = uk_nl_reset,
	.nl_set_config = uk_nl_set_config,
	.nl_dump_sites = uk_nl_dump_sites,
	.nl_family = uk_nl_family,
	.nl_events_open = uk_nl_events_open,
	.nl_events_recv = uk_nl_events_recv,
	.clock_gettime = clock_gettime,
};

const struct uk_cli_sys *uk_cli_sys = &uk_cli_sys_real;

int uk_cli_error(const struct uk_cli *cli, int err, const char *fmt, ...)
{
	FILE *f = cli && cli->err ? cli->err : stderr;
	va_list ap;

	fputs("uaccessctl: ", f);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fflush(f);
	return err;
}

int uk_cli_exit_code(int err)
{
	switch (err) {
	case 0:
		return UK_EXIT_OK;
	case UK_ERR_USAGE:
		return UK_EXIT_USAGE;
	case UK_ERR_NO_KERNEL:
		return UK_EXIT_NO_KERNEL;
	case UK_ERR_NO_DAEMON:
		return UK_EXIT_NO_DAEMON;
	case UK_ERR_PERM:
	case -EACCES:
		return UK_EXIT_PERM;
	case UK_ERR_LOSS:
		return UK_EXIT_LOSS;
	default:
		return UK_EXIT_FAILURE;
	}
}

/* ---- transports ---- */

const char *uk_cli_socket(const struct uk_cli *cli)
{
	return cli->socket ? cli->socket : UK_CTL_SOCKET_PATH;
}

bool uk_cli_ctl_absent(int err)
{
	return err == -ENOENT || err == -ECONNREFUSED;
}

/* The transport's errors as sentences. */
static void ctl_why(const char *path, int err, char *why, size_t whylen)
{
	switch (-err) {
	case ENOENT:
		uk_why(why, whylen, "no control socket %s", path);
		break;
	case ECONNREFUSED:
		uk_why(why, whylen, "nothing listens on %s", path);
		break;
	case EACCES:
	case EPERM:
		uk_why(why, whylen, "permission denied: cannot connect to %s",
			path);
		break;
	case ETIMEDOUT:
		uk_why(why, whylen, "uaccessd did not answer within %d s",
			UK_CLI_CTL_TIMEOUT_MS / 1000);
		break;
	case EPROTO:
		uk_why(why, whylen,
			"uaccessd's reply is not one JSON object line");
		break;
	case EMSGSIZE:
		uk_why(why, whylen, "uaccessd's reply is too large");
		break;
	case ENAMETOOLONG:
		uk_why(why, whylen, "socket path too long: %s", path);
		break;
	case ENOTSOCK:
		uk_why(why, whylen, "%s is not a socket", path);
		break;
	default:
		uk_why(why, whylen, "cannot talk to uaccessd at %s: %s", path,
			strerror(-err));
		break;
	}
}

int uk_cli_ctl(const struct uk_cli *cli, const char *request,
	       struct uk_json_value **reply, char *why, size_t whylen)
{
	const char *path = uk_cli_socket(cli), *msg = NULL;
	struct uk_json_value *v = NULL;
	char perr[160] = "";
	uint64_t en = 0;
	bool ok = false;
	int r;

	uk_why(why, whylen, "%s", "");
	r = uk_cli_sys->ctl_call(path, request, UK_CLI_CTL_TIMEOUT_MS, &v,
				 perr, sizeof(perr));
	if (r == -EPROTO && perr[0]) {
		uk_why(why, whylen, "uaccessd's reply is %s", perr);
		return r;
	}
	if (r < 0) {
		ctl_why(path, r, why, whylen);
		return r;
	}
	if (uk_json_get_bool(uk_json_object_get(v, "ok"), &ok) < 0) {
		uk_why(why, whylen, "uaccessd's reply has no \"ok\"");
		uk_json_value_free(v);
		return -EPROTO;
	}
	if (!ok) {
		if (uk_json_get_u64(uk_json_object_get(v, "errno"), &en) < 0 ||
		    en == 0 || en > 4095)
			en = EIO;
		if (uk_json_get_str(uk_json_object_get(v, "error"), &msg) < 0)
			msg = strerror((int)en);
		uk_why(why, whylen, "%s", msg);
		uk_json_value_free(v);
		/* Not to be read as "uaccessd is not running" by a caller. */
		if (en == ENOENT || en == ECONNREFUSED)
			en = EREMOTEIO;
		return -(int)en;
	}
	*reply = v;
	return 0;
}

int uk_cli_ctl_explain(const struct uk_cli *cli, int err, const char *why,
		       char *msg, size_t msglen)
{
	if (uk_cli_ctl_absent(err)) {
		if (cli->socket)
			uk_why(msg, msglen, "%s: %s", UK_CLI_MSG_NO_DAEMON,
				why);
		else
			uk_why(msg, msglen, "%s", UK_CLI_MSG_NO_DAEMON);
		return UK_ERR_NO_DAEMON;
	}
	uk_why(msg, msglen, "%s", why && why[0] ? why : strerror(-err));
	if (err == -EPERM || err == -EACCES)
		return UK_ERR_PERM;
	return UK_ERR_FAILURE;
}

int uk_cli_ctl_fail(const struct uk_cli *cli, int err, const char *why)
{
	char msg[512];
	int r = uk_cli_ctl_explain(cli, err, why, msg, sizeof(msg));

	return uk_cli_error(cli, r, "%s", msg);
}

int uk_cli_nl_explain(int err, char *msg, size_t msglen)
{
	switch (-err) {
	case ENOENT:
		uk_why(msg, msglen, "%s", UK_CLI_MSG_NO_KERNEL);
		return UK_ERR_NO_KERNEL;
	case EPERM:
	case EACCES:
		uk_why(msg, msglen,
			"permission denied: cannot open a generic netlink socket");
		return UK_ERR_PERM;
	default:
		uk_why(msg, msglen,
			"cannot reach the kernel's uaccess_kaddr family: %s",
			strerror(-err));
		return UK_ERR_FAILURE;
	}
}

int uk_cli_nl_open(const struct uk_cli *cli, struct uk_nl **nl)
{
	char msg[256];
	int r = uk_cli_sys->nl_open(nl);

	if (r == 0)
		return 0;
	*nl = NULL;
	return uk_cli_error(cli, uk_cli_nl_explain(r, msg, sizeof(msg)), "%s",
			    msg);
}

int uk_cli_nl_fail(const struct uk_cli *cli, const char *what, int err,
		   const char *why)
{
	if (err == -EPERM || err == -EACCES)
		return uk_cli_error(cli, UK_ERR_PERM, "%s",
				    UK_CLI_MSG_NEED_ADMIN);
	if (err == -ENOENT)
		return uk_cli_error(cli, UK_ERR_NO_KERNEL, "%s",
				    UK_CLI_MSG_NO_KERNEL);
	if (err == -ETIMEDOUT)
		return uk_cli_error(cli, UK_ERR_FAILURE,
				    "%s: the kernel did not answer in time",
				    what);
	return uk_cli_error(cli, UK_ERR_FAILURE, "%s failed: %s", what,
			    why && why[0] ? why : strerror(-err));
}

int uk_cli_parse_u64(const char *s, uint64_t max, uint64_t *ret)
{
	uint64_t v = 0;
	const char *p;

	if (!s || !*s)
		return -EINVAL;
	for (p = s; *p; p++) {
		unsigned int d;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		d = (unsigned int)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	if (v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

/* ---- text ---- */

char *uk_cli_sanitize(const char *in, char *out, size_t outlen)
{
	const unsigned char *p = (const unsigned char *)(in ? in : "");
	size_t rem = strlen((const char *)p), o = 0, k;

	if (!outlen)
		return out;
	while (rem) {
		k = uk_utf8_len(p, rem);
		/* C0, DEL, and U+0080..U+009F (C1, "\xc2\x80".."\xc2\x9f") */
		if (k == 0 || (k == 1 && (*p < 0x20 || *p == 0x7f)) ||
		    (k == 2 && p[0] == 0xc2 && p[1] < 0xa0)) {
			if (o + 1 >= outlen)
				break;
			out[o++] = '?';
			k = k ? k : 1;
		} else {
			if (o + k >= outlen)
				break;
			memcpy(out + o, p, k);
			o += k;
		}
		p += k;
		rem -= k;
	}
	out[o] = '\0';
	return out;
}

void uk_cli_sanitize_n(const char *s, size_t len, char *out, size_t outlen)
{
	char *tmp;

	if (!outlen)
		return;
	tmp = strndup(s, len < outlen ? len : outlen - 1);
	if (!tmp) {
		out[0] = '\0';
		return;
	}
	uk_cli_sanitize(tmp, out, outlen);
	free(tmp);
}

char *uk_cli_sanitize_dup(const char *s, size_t len)
{
	char *out = malloc(len + 1);

	if (out)
		uk_cli_sanitize_n(s, len, out, len + 1);
	return out;
}

size_t uk_cli_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

void uk_cli_kv(FILE *out, const char *key, const char *value)
{
	char buf[1024];

	if (!value || !*value)
		value = "-";
	fprintf(out, "%s %s\n", key, uk_cli_sanitize(value, buf, sizeof(buf)));
}

/* A scalar as text: "" for containers. */
static const char *scalar_text(const struct uk_json_value *v, char *buf,
			       size_t len)
{
	const char *s;
	uint64_t u;
	int64_t i;
	double d;
	bool b;

	switch (uk_json_type(v)) {
	case UK_JSON_BOOL:
		uk_json_get_bool(v, &b);
		return b ? "yes" : "no";
	case UK_JSON_STRING:
		if (uk_json_get_strn(v, &s, NULL) == 0)
			return s;
		return "";
	case UK_JSON_NUMBER:
		if (uk_json_get_u64(v, &u) == 0)
			snprintf(buf, len, "%" PRIu64, u);
		else if (uk_json_get_s64(v, &i) == 0)
			snprintf(buf, len, "%" PRId64, i);
		else if (uk_json_get_double(v, &d) == 0)
			snprintf(buf, len, "%g", d);
		else
			return "";
		return buf;
	default:
		return "";
	}
}

void uk_cli_kv_json(FILE *out, const char *prefix,
		    const struct uk_json_value *v)
{
	char key[256], num[32], line[1024], item[1024];
	const struct uk_json_value *m;
	const char *name;
	size_t i, n, o;

	switch (uk_json_type(v)) {
	case UK_JSON_OBJECT:
		n = uk_json_object_len(v);
		for (i = 0; i < n; i++) {
			m = uk_json_object_at(v, i, &name);
			snprintf(key, sizeof(key), "%s.%s", prefix, name);
			uk_cli_kv_json(out, key, m);
		}
		break;
	case UK_JSON_ARRAY:
		n = uk_json_array_len(v);
		o = 0;
		line[0] = '\0';
		/* Items are words: a blank inside one would split it. */
		for (i = 0; i < n && o + 1 < sizeof(line); i++) {
			m = uk_json_array_at(v, i);
			uk_cli_sanitize(scalar_text(m, num, sizeof(num)), item,
					sizeof(item));
			for (char *c = item; *c; c++)
				if (*c == ' ')
					*c = '?';
			o += (size_t)snprintf(line + o, sizeof(line) - o,
					      "%s%s", i ? " " : "",
					      item[0] ? item : "-");
		}
		uk_cli_kv(out, prefix, line);
		break;
	default:
		uk_cli_kv(out, prefix, scalar_text(v, num, sizeof(num)));
		break;
	}
}

void uk_cli_kv_fields(FILE *out, const char *prefix,
		      const struct uk_field *fields, const void *obj)
{
	char key[256], val[UK_SYMBOL_LEN + 32];
	const struct uk_field *f;

	for (f = fields; f->name; f++) {
		if (!uk_field_present(f, obj))
			continue;
		snprintf(key, sizeof(key), "%s.%s", prefix, f->name);
		uk_field_format(f, obj, val, sizeof(val));
		uk_cli_kv(out, key, val);
	}
}

/* ---- tables ---- */

struct uk_cli_table {
	const struct uk_cli_column *cols;
	size_t ncols;
	size_t nrows, cap;
	char **cells;		/* nrows * ncols */
};

int uk_cli_table_new(const struct uk_cli_column *cols, size_t ncols,
		     struct uk_cli_table **ret)
{
	struct uk_cli_table *t;

	if (!ncols)
		return -EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->cols = cols;
	t->ncols = ncols;
	*ret = t;
	return 0;
}

void uk_cli_table_free(struct uk_cli_table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t);
}

int uk_cli_table_add(struct uk_cli_table *t, const char *const *cells)
{
	char buf[UK_SYMBOL_LEN * 2];
	size_t i, base;
	char **p;

	if (t->nrows == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;

		if (cap > SIZE_MAX / t->ncols / sizeof(*p))
			return -ENOMEM;
		p = realloc(t->cells, cap * t->ncols * sizeof(*p));
		if (!p)
			return -ENOMEM;
		t->cells = p;
		t->cap = cap;
	}
	base = t->nrows * t->ncols;
	for (i = 0; i < t->ncols; i++) {
		const char *c = cells[i] && cells[i][0] ? cells[i] : "-";

		t->cells[base + i] = strdup(uk_cli_sanitize(c, buf,
							    sizeof(buf)));
		if (!t->cells[base + i]) {
			while (i--)
				free(t->cells[base + i]);
			return -ENOMEM;
		}
	}
	t->nrows++;
	return 0;
}

size_t uk_cli_table_rows(const struct uk_cli_table *t)
{
	return t->nrows;
}

static void print_cell(FILE *out, const char *s, size_t width,
		       enum uk_cli_align align, bool last)
{
	size_t w = uk_cli_width(s);
	size_t pad = width > w ? width - w : 0;

	if (align == UK_CLI_RIGHT)
		fprintf(out, "%*s", (int)pad, "");
	fputs(s, out);
	if (align == UK_CLI_LEFT && !last)
		fprintf(out, "%*s", (int)pad, "");
}

static void print_row(const struct uk_cli_table *t, FILE *out,
		      const size_t *width, const char *const *cells)
{
	size_t i, last = t->ncols - 1;

	/* The last left-aligned column takes no padding: no trailing blanks. */
	for (i = 0; i < t->ncols; i++) {
		if (i)
			fputc(' ', out);
		print_cell(out, cells[i], width[i], t->cols[i].align,
			   i == last);
	}
	fputc('\n', out);
}

void uk_cli_table_print(const struct uk_cli_table *t, FILE *out,
			bool header)
{
	const char *hdr[t->ncols];
	size_t width[t->ncols];
	size_t r, i, w;

	for (i = 0; i < t->ncols; i++) {
		hdr[i] = t->cols[i].header;
		width[i] = header ? uk_cli_width(hdr[i]) : 0;
		for (r = 0; r < t->nrows; r++) {
			w = uk_cli_width(t->cells[r * t->ncols + i]);
			if (w > width[i])
				width[i] = w;
		}
	}
	if (header)
		print_row(t, out, width, hdr);
	for (r = 0; r < t->nrows; r++)
		print_row(t, out, width,
			  (const char *const *)&t->cells[r * t->ncols]);
}

/* ---- JSON ---- */

int uk_cli_json_print(const struct uk_cli *cli, struct uk_json *j)
{
	char *text = NULL;
	size_t len = 0;
	int r;

	r = uk_json_finish(j, &text, &len);
	if (r < 0)
		return uk_cli_error(cli, UK_ERR_FAILURE,
				    "cannot write the JSON output: %s",
				    strerror(-r));
	fwrite(text, 1, len, cli->out);
	fputc('\n', cli->out);
	free(text);
	return 0;
}

/* ---- time ---- */

uint64_t uk_cli_boot_to_real(uint64_t boot_ns)
{
	struct timespec real, boot;
	uint64_t real_ns, boot_now;

	if (uk_cli_sys->clock_gettime(CLOCK_REALTIME, &real) < 0 ||
	    uk_cli_sys->clock_gettime(CLOCK_BOOTTIME, &boot) < 0)
		return 0;
	real_ns = (uint64_t)real.tv_sec * UK_NSEC_PER_SEC + real.tv_nsec;
	boot_now = (uint64_t)boot.tv_sec * UK_NSEC_PER_SEC + boot.tv_nsec;
	return uk_time_boot_to_real(boot_ns, real_ns, boot_now);
}

/* ---- pager ---- */

/* Is @name an executable in $PATH? */
static bool in_path(const char *name)
{
	const char *path = getenv("PATH"), *p, *end;
	char file[4096];

	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		if (end == p)
			continue;
		if (snprintf(file, sizeof(file), "%.*s/%s", (int)(end - p), p,
			     name) >= (int)sizeof(file))
			continue;
		if (access(file, X_OK) == 0)
			return true;
	}
	return false;
}

/* systemd's booleans: 1 true, 0 false, -1 neither. */
static int parse_boolean(const char *s)
{
	static const char *const yes[] = { "1", "yes", "y", "true", "t", "on" };
	static const char *const no[] = { "0", "no", "n", "false", "f", "off" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(yes); i++)
		if (!strcasecmp(s, yes[i]))
			return 1;
	for (i = 0; i < ARRAY_SIZE(no); i++)
		if (!strcasecmp(s, no[i]))
			return 0;
	return -1;
}

bool uk_cli_pager_secure_mode(const char *pagersecure, bool owner_known,
			      uid_t owner, uid_t euid)
{
	if (pagersecure)
		return parse_boolean(pagersecure) != 0;
	return !owner_known || owner != euid;
}

bool uk_cli_pager_secure(void)
{
	uid_t owner = 0;
	int r = sd_pid_get_owner_uid(0, &owner);

	return uk_cli_pager_secure_mode(secure_getenv("SYSTEMD_PAGERSECURE"),
					r >= 0, owner, geteuid());
}

const char *uk_cli_pager_command(bool tty, bool disabled, bool secure,
				 const char *systemd_pager, const char *pager)
{
	const char *env = systemd_pager ? systemd_pager : pager;

	if (!tty || disabled)
		return NULL;
	if (env) {
		env += strspn(env, " \t");
		if (!*env || !strcmp(env, "cat"))
			return NULL;
		/*
		 * Secure: the command is not looked at, less or nothing
		 * runs (the environment sudo kept could name any program).
		 */
		if (!secure)
			return env;
	}
	if (in_path("less"))
		return "less";
	if (!secure && in_path("more"))
		return "more";
	return NULL;
}

int uk_cli_pager_open(struct uk_cli_pager *pg, const char *cmd, bool secure)
{
	const char *less = getenv("SYSTEMD_LESS");
	int fd[2], saved, r;
	pid_t pid;

	pg->pid = 0;
	pg->saved_stdout = -1;
	fflush(stdout);
	if (pipe2(fd, O_CLOEXEC) < 0)
		return -errno;
	saved = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (saved < 0) {
		r = -errno;
		goto fail;
	}
	pid = fork();
	if (pid < 0) {
		r = -errno;
		close(saved);
		goto fail;
	}
	if (pid == 0) {
		if (dup2(fd[0], STDIN_FILENO) < 0)
			_exit(EXIT_FAILURE);
		setenv("LESS", less ? less : "FRSXMK", 1);
		if (secure) {
			setenv("LESSSECURE", "1", 1);
			unsetenv("LESSSECURE_ALLOW");
		}
		signal(SIGPIPE, SIG_DFL);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	if (dup2(fd[1], STDOUT_FILENO) < 0) {
		r = -errno;
		close(fd[0]);
		close(fd[1]);
		close(saved);
		waitpid(pid, NULL, 0);
		return r;
	}
	close(fd[0]);
	close(fd[1]);
	pg->pid = pid;
	pg->saved_stdout = saved;
	return 0;
fail:
	close(fd[0]);
	close(fd[1]);
	return r;
}

void uk_cli_pager_close(struct uk_cli_pager *pg)
{
	if (!pg->pid)
		return;
	fflush(stdout);
	/* Our end of the pipe goes: the pager sees end-of-file. */
	dup2(pg->saved_stdout, STDOUT_FILENO);
	close(pg->saved_stdout);
	while (waitpid(pg->pid, NULL, 0) < 0 && errno == EINTR)
		;
	pg->pid = 0;
	pg->saved_stdout = -1;
}
