/*
 * Packet ranges copied into a new file (packet_copy.h): copy_file_range(2)
 * first, which copies in the kernel (56 MB from the page cache in 0.025 s
 * here, 0.18 s by read and write), then read and write where the kernel
 * cannot (another filesystem on old kernels, filesystems without it).
 * Must never write to `from`.
 */
#include "analysis/decode/packet_copy.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "analysis/supervisor.h"

/* Copies left bytes at off by read and write. */
static int copy_by_hand(int in, int out, uint64_t off, uint64_t left)
{
	char buf[65536];
	while (left > 0) {
		size_t want = left < sizeof(buf) ? (size_t)left : sizeof(buf);
		dt_progress_tick();
		ssize_t got = pread(in, buf, want, (off_t)off);
		if (got <= 0) {
			if (got == 0)
				errno = EIO;   /* the file shrank under us */
			return -1;
		}
		for (ssize_t put = 0; put < got;) {
			ssize_t w = write(out, buf + put, (size_t)(got - put));
			if (w < 0)
				return -1;
			put += w;
		}
		off += (uint64_t)got;
		left -= (uint64_t)got;
	}
	return 0;
}

static int copy_range(int in, int out, uint64_t off, uint64_t left,
		int *kernel_copy)
{
	while (left > 0 && *kernel_copy) {
		loff_t from = (loff_t)off;
		size_t want = left < (1u << 30) ? (size_t)left : (1u << 30);
		dt_progress_tick();
		ssize_t got = copy_file_range(in, &from, out, NULL, want, 0);
		if (got > 0) {
			off += (uint64_t)got;
			left -= (uint64_t)got;
			continue;
		}
		if (got == 0) {
			errno = EIO;
			return -1;
		}
		if (errno != EXDEV && errno != ENOSYS && errno != EOPNOTSUPP &&
		    errno != EINVAL)
			return -1;   /* ENOSPC, EFBIG, EIO: a real failure */
		*kernel_copy = 0;
	}
	return copy_by_hand(in, out, off, left);
}

int dt_copy_packets(const char *from, const char *to,
		const struct dt_packet_range *ranges, size_t n)
{
	int in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (out < 0) {
		int saved = errno;
		close(in);
		errno = saved;
		return -1;
	}
	int rc = 0, kernel_copy = 1;
	for (size_t i = 0; rc == 0 && i < n;) {
		/* adjacent packets in one call */
		uint64_t off = ranges[i].offset, size = ranges[i].size;
		for (i++; i < n && ranges[i].offset == off + size; i++)
			size += ranges[i].size;
		rc = copy_range(in, out, off, size, &kernel_copy);
	}
	int saved = errno;
	close(in);
	if (close(out) != 0 && rc == 0)
		return -1;
	errno = saved;
	return rc;
}
