// The LDtk loader through the CMake package: its defaults and its
// vocabulary are readable.
#include <ledge/ldtk.h>

#include <stdio.h>

int main(void) {
    ledge_ldtk_def d = ledge_default_ldtk_def();
    int tile = ledge_ldtk_tile_from_name("slope45_up_right", NULL);
    printf("ledge_ldtk through CMake: ok (y_down %d, slope45_up_right = %d)\n", (int)d.y_down,
           tile);
    return tile == LEDGE_TILE_45DEG_PN ? 0 : 1;
}
