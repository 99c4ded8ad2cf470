// The system calls the loop makes for every request (receive, send, wait),
// made with syscall(2) rather than through libc's wrappers (the wait is in
// loop/epoll.cc, the one file that includes <sys/epoll.h>).
//
// Each of those wrappers (recv, sendmsg, epoll_wait) is a thread
// cancellation point: in a process with more than one thread, glibc turns
// asynchronous cancellation on before the call and off after it, some 60
// user-space instructions a call, and a hello served one request at a time
// makes three of them (some 2 % of the WSGI inline hello's instructions).
// Baton never cancels a thread, so the bookkeeping buys nothing here; the
// calls and their results (-1 with errno) are the same. (A library that
// replaces libc's socket calls through LD_PRELOAD does not see these.)
//
// Under a sanitizer the wrappers stay: ASan checks the buffers they are
// given, and TSan orders the threads that talk through a socket by them.
#pragma once

#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BATON_LIBC_SYSCALLS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define BATON_LIBC_SYSCALLS 1
#endif
#endif

namespace baton::util {

inline ssize_t direct_recv(int fd, void* buffer, size_t length) {
#ifdef BATON_LIBC_SYSCALLS
  return ::recv(fd, buffer, length, 0);
#else
  return ::syscall(SYS_recvfrom, fd, buffer, length, 0, nullptr, nullptr);
#endif
}

inline ssize_t direct_sendmsg(int fd, const msghdr* message, int flags) {
#ifdef BATON_LIBC_SYSCALLS
  return ::sendmsg(fd, message, flags);
#else
  return ::syscall(SYS_sendmsg, fd, message, flags);
#endif
}

}  // namespace baton::util
