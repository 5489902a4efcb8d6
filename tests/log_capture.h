// Test helper: records what ledge sends to the log hook so that a test can
// assert that a refusal was reported, and with which words.
#ifndef LEDGE_TEST_LOG_CAPTURE_H
#define LEDGE_TEST_LOG_CAPTURE_H

#include <ledge/base.h>

#include <stdio.h>
#include <string.h>

typedef struct log_capture {
    int count;
    ledge_log_level level;
    char last[512];
} log_capture;

static log_capture g_log;

static void log_capture_hook(ledge_log_level level, const char *message, void *user) {
    (void)user;
    g_log.count++;
    g_log.level = level;
    snprintf(g_log.last, sizeof g_log.last, "%s", message);
}

/// Starts capturing: clears the record and installs the hook.
static inline void log_capture_start(void) {
    memset(&g_log, 0, sizeof g_log);
    ledge_set_log_hook(log_capture_hook, NULL);
}

/// Whether an error was logged since log_capture_start and its text holds
/// every one of the given words (NULL-terminated list).
static inline bool log_capture_says(const char *w1, const char *w2) {
    if (g_log.count == 0 || g_log.level != LEDGE_LOG_ERROR) return false;
    if (w1 && !strstr(g_log.last, w1)) return false;
    if (w2 && !strstr(g_log.last, w2)) return false;
    return true;
}

#endif
