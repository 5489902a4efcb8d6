/* empty: LuaJIT knows the standard types */
