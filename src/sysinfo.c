/* Environment facts for the result file. */
#include "loadgen/sysinfo.h"

#include <errno.h>
#include <sys/utsname.h>

int lg_sysinfo_json(json_t **out)
{
	struct utsname u;
	json_t *env;

	if (uname(&u) != 0)
		return -errno;
	env = json_pack("{s:s, s:s, s:s, s:s}", "kernel", u.release, "kernel_version",
			u.version, "hostname", u.nodename, "arch", u.machine);
	if (!env)
		return -ENOMEM;
	*out = env;
	return 0;
}
