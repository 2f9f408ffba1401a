/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * tests/progs/tmpl.cc - C++ with templates, a class hierarchy and
 * inlining, for call stacks of C++ code built without frame pointers.
 *
 *   tmpl [MSEC]
 *
 * drive calls Runner<Square>::step and Runner<Cube>::step (never
 * inlined) through the virtual Task::step; each folds a vector with an
 * inlined template (fold), for MSEC milliseconds in all (default 300).
 */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

extern "C" {
#include "progs.h"
}

namespace pd {

struct Square {
	static uint64_t apply(uint64_t v) { return v * v + 1; }
};

struct Cube {
	static uint64_t apply(uint64_t v) { return v * v * v + 3; }
};

template <class Op>
inline uint64_t
fold(const std::vector<uint64_t> &v, uint64_t acc)
{
	for (uint64_t x : v)
		acc = acc * 31 + Op::apply(x ^ acc);
	return acc;
}

class Task {
public:
	virtual ~Task() = default;
	virtual uint64_t step(uint64_t acc) = 0;
};

template <class Op>
class Runner : public Task {
public:
	explicit Runner(size_t n) : data_(n)
	{
		for (size_t i = 0; i < n; i++)
			data_[i] = i * 7 + 1;
	}
	__attribute__((noinline)) uint64_t step(uint64_t acc) override
	{
		return fold<Op>(data_, acc);
	}
private:
	std::vector<uint64_t> data_;
};

} /* namespace pd */

__attribute__((noinline)) static uint64_t
drive(pd::Task &square, pd::Task &cube, uint64_t end)
{
	uint64_t acc = 1;

	do {
		acc = square.step(acc);
		acc = cube.step(acc);
	} while (progs_now_ns() < end);
	return acc;
}

int
main(int argc, char **argv)
{
	unsigned long msec = 300;

	if (argc > 2) {
		std::fprintf(stderr, "usage: tmpl [MSEC]\n");
		return 2;
	}
	if (argc == 2)
		msec = progs_arg("tmpl", "MSEC", argv[1]);
	std::unique_ptr<pd::Task> square(new pd::Runner<pd::Square>(4096));
	std::unique_ptr<pd::Task> cube(new pd::Runner<pd::Cube>(2048));
	progs_sink = drive(*square, *cube,
			   progs_now_ns() + (uint64_t)msec * 1000000);
	return 0;
}
