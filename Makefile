# patchreview: one flat Makefile. `make demo` and `make check` are the two
# commands a new machine needs; both install missing Debian packages first.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share/patchreview
MANDIR ?= $(PREFIX)/share/man
VERSION = 0.1.0

PKGS = gmime-3.0 libcurl libcjson
CC ?= cc
CFLAGS ?= -O2 -g
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# libcurl is opened with dlopen() on the first model request (filter/transport/libcurl.c):
# linking it would cost every run ~10 ms of loading TLS libraries.
PKG_LIBS = $(shell pkg-config --libs gmime-3.0 libcjson 2>/dev/null) -ldl
override CFLAGS += -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L \
	-Wall -Wextra -Werror -Wno-deprecated-declarations \
	-DPATCHREVIEW_VERSION='"$(VERSION)"' -DPATCHREVIEW_DATADIR='"$(DATADIR)"' \
	-Ifilter $(PKG_CFLAGS)
LDLIBS += $(PKG_LIBS)

# One folder per pipeline stage; includes name the folder ("mail/mail.h").
SRCS = $(sort $(wildcard filter/*.c filter/*/*.c))
HDRS = $(wildcard filter/*.h filter/*/*.h)
OBJS = $(SRCS:filter/%.c=build/release/%.o)
ASAN_OBJS = $(SRCS:filter/%.c=build/asan/%.o)
SANITIZE = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

all: patchreview

# V=1 shows the compiler command lines.
Q = $(if $(V),,@)

patchreview: $(OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

build/release/%.o: filter/%.c $(HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<

build/asan/patchreview: $(ASAN_OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) -O1 $(SANITIZE) $(LDFLAGS) -o $@ $(ASAN_OBJS) $(LDLIBS)

# tests/tools/dump: what the parsers saw, for the parser tests.
LIB_ASAN_OBJS = $(filter-out build/asan/main.o,$(ASAN_OBJS))
build/asan/dump: tests/tools/dump.c $(LIB_ASAN_OBJS) $(HDRS)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) -O1 $(SANITIZE) $(LDFLAGS) -o $@ tests/tools/dump.c $(LIB_ASAN_OBJS) $(LDLIBS)

build/asan/%.o: filter/%.c $(HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $< (asan)"
	$(Q)$(CC) $(CFLAGS) -O1 $(SANITIZE) -c -o $@ $<

# The libFuzzer targets of tests/fuzz/ (clang, ASan and UBSan): the
# library built once more with coverage, and one harness a target.
# fuzz_stream talks to tests/fuzz/fake_http.c instead of libcurl.
FUZZ_CC ?= clang
FUZZ_TIME ?= 60
FUZZ_TARGETS = mail answer stream config guide cscan apply thread learn
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_OBJS = $(filter-out build/fuzz/obj/main.o,$(SRCS:filter/%.c=build/fuzz/obj/%.o))
FUZZ_NET = build/fuzz/obj/transport/http.o build/fuzz/obj/transport/libcurl.o
FUZZ_HDRS = $(wildcard tests/fuzz/*.h)

build/fuzz/obj/%.o: filter/%.c $(HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $< (fuzz)"
	$(Q)$(FUZZ_CC) $(CFLAGS) -O1 $(FUZZ_SAN) -fsanitize=fuzzer-no-link -c -o $@ $<

build/fuzz/t/%.o: tests/fuzz/%.c $(HDRS) $(FUZZ_HDRS)
	@mkdir -p $(@D)
	@echo "  CC      $< (fuzz)"
	$(Q)$(FUZZ_CC) $(CFLAGS) -O1 $(FUZZ_SAN) -fsanitize=fuzzer-no-link -Itests/fuzz -c -o $@ $<

build/fuzz/fuzz_stream: build/fuzz/t/fuzz_stream.o build/fuzz/t/fake_http.o build/fuzz/t/check.o \
		$(filter-out $(FUZZ_NET),$(FUZZ_OBJS))
	@echo "  LD      $@"
	$(Q)$(FUZZ_CC) $(CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer $(LDFLAGS) -o $@ $^ $(LDLIBS)

build/fuzz/fuzz_%: build/fuzz/t/fuzz_%.o build/fuzz/t/check.o $(FUZZ_OBJS)
	@echo "  LD      $@"
	$(Q)$(FUZZ_CC) $(CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer $(LDFLAGS) -o $@ $^ $(LDLIBS)

fuzz-targets: $(FUZZ_TARGETS:%=build/fuzz/fuzz_%)

# The prompts' install directory is compiled into guide.o: rebuild it when
# DATADIR changes (make; make install PREFIX=/usr).
build/release/prompt/guide.o build/asan/prompt/guide.o build/fuzz/obj/prompt/guide.o: build/datadir
build/datadir: FORCE
	@mkdir -p build
	@echo '$(DATADIR)' | cmp -s - $@ || echo '$(DATADIR)' > $@
FORCE:

deps:
	@sh tests/deps.sh build

check-deps:
	@sh tests/deps.sh check

demo: deps
	@$(MAKE) --no-print-directory patchreview
	./patchreview --no-cache < tests/mails/demo.eml

check: check-deps
	@$(MAKE) --no-print-directory patchreview build/asan/patchreview build/asan/dump
	@if sh tests/fuzz/run.sh can-build; then $(MAKE) --no-print-directory fuzz-targets; \
	else echo "  skip    the fuzz targets: $(FUZZ_CC) cannot build -fsanitize=fuzzer"; fi
	sh tests/run.sh

# Each fuzz target for FUZZ_TIME seconds, one after another.
fuzz: check-deps
	@$(MAKE) --no-print-directory fuzz-targets
	sh tests/fuzz/run.sh fuzz $(FUZZ_TIME)

# A generated mutation pass, a few mutants per function of the folders
# (or files) named, each against the tests that reach it: by hand, not in
# check. make mutate FOLDERS="patch mail" MUTATE_FLAGS="--per-function 2"
FOLDERS ?= patch mail transport answer backend tree repo
mutate: check-deps
	@$(MAKE) --no-print-directory patchreview build/asan/patchreview build/asan/dump
	nice -n 15 python3 tests/mutate.py $(MUTATE_FLAGS) $(FOLDERS)

bench: deps
	@$(MAKE) --no-print-directory patchreview
	sh tests/bench.sh

# doc/*.md are the one source: the reference tables in them come from the
# binary's own (doc/tables.py), the man pages from them (doc/md2man.py).
# Both are committed, so that install needs no python; t13 checks them.
MANPAGES = $(wildcard doc/man/*.[1-8])
MAN_DATE = 2026-12-03

doc: patchreview
	python3 doc/tables.py ./patchreview README.md doc/*.md
	rm -f doc/man/*.[1-8]
	python3 doc/md2man.py $(VERSION) $(MAN_DATE) doc/man doc/*.md

# The programs of contrib/ that the recipes run by name, installed on PATH
# beside patchreview (and kept in contrib/ with the rest of each recipe).
CONTRIB_BIN = contrib/learn/patchreview-sendmail contrib/b4/patchreview-agent \
	contrib/git/git-patchreview contrib/aerc/patchreview-stash \
	contrib/aerc/patchreview-await contrib/aerc/patchreview-drafts

# The man pages name where the prompts and recipes are: the DATADIR installed to.
install: patchreview
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/prompts $(DESTDIR)$(DATADIR)/contrib
	install -m 755 patchreview $(CONTRIB_BIN) $(DESTDIR)$(BINDIR)/
	for p in $(MANPAGES); do \
		d=$(DESTDIR)$(MANDIR)/man$${p##*.}; mkdir -p $$d && \
		sed 's|/usr/local/share/patchreview|$(DATADIR)|g' $$p >$$d/$${p##*/} && \
		chmod 644 $$d/$${p##*/} || exit 1; \
	done
	cp -R prompts/. $(DESTDIR)$(DATADIR)/prompts/
	cp -R contrib/. $(DESTDIR)$(DATADIR)/contrib/
	@echo "mutt, neomutt: add 'source $(DATADIR)/contrib/mutt/patchreview.muttrc' to your muttrc"
	@echo "aerc: see $(DATADIR)/contrib/README.md"

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/patchreview $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(CONTRIB_BIN)))
	for p in $(MANPAGES); do rm -f $(DESTDIR)$(MANDIR)/man$${p##*.}/$${p##*/}; done
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build patchreview

.PHONY: all deps check-deps demo check fuzz fuzz-targets mutate bench doc install uninstall clean FORCE
