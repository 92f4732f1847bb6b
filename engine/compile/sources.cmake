# Sources of engine/compile and of the model/io files that belong to it, relative to engine/.
list(APPEND cs_engine_area_sources
)
