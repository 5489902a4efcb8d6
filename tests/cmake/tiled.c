// The Tiled loader through the CMake package: its defaults are readable.
#include <ledge/tiled.h>

#include <stdio.h>

int main(void) {
    ledge_tiled_def d = ledge_default_tiled_def();
    printf("ledge_tiled through CMake: ok (y_down %d)\n", (int)d.y_down);
    return 0;
}
