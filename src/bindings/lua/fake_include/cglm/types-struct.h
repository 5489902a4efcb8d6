/* cglm's vec2s as LuaJIT sees it: the same layout (two floats, 4-byte
   aligned) with the raw array and the x/y names. */
typedef union vec2s {
    float raw[2];
    struct {
        float x;
        float y;
    };
} vec2s;
