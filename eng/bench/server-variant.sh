# Sourced by the bench scripts that start server models: the named variants of a model, as
# server_variant NAME sets $model (the --server to give) and $options (its --server-option flags).
#   kestrel-inline          Kestrel with the TechEmpower entry's scheduling: socket completions inline
#                           on the epoll thread, request code on the transport's thread, no wait for
#                           data before a read buffer is rented
#   kestrel-iouring         Kestrel on its io_uring transport
#   kestrel-iouring-inline  the same with request code on the ring's thread
# Any other name is a server model as it is.
server_variant() {
  model=$1
  options=()
  case $1 in
    kestrel-inline)
      model=kestrel
      options=(--server-option inlineCompletions=true --server-option unsafePreferInlineScheduling=true --server-option waitForDataBeforeAllocatingBuffer=false) ;;
    kestrel-iouring)
      model=kestrel
      options=(--server-option transport=iouring) ;;
    kestrel-iouring-inline)
      model=kestrel
      options=(--server-option transport=iouring --server-option unsafePreferInlineScheduling=true) ;;
  esac
}
