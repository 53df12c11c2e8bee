echo "CUDA out of memory. Tried to allocate 2.00 GiB"
