// Other C++ an application cannot use: pointers, static variables, exceptions, range-for,
// member functions of user classes, calls through function pointers.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor x) { return nt::arrange(x.tile({4})); }

NT_APPLICATION void pointer(nt::Tile x) {
  nt::Tile *p = &x; // expected-error {{pointer and array variables are not supported in an application function; use tiles}}
  *p = x + 1;
}

NT_APPLICATION void static_variable(nt::Tile x) {
  static int calls = 0; // expected-error {{static variables are not supported in an application function}}
  x = x + calls;
}

NT_APPLICATION void exceptions(nt::Tile x) {
  try { // expected-error {{exceptions are not supported in an application function}}
    x = x + 1;
  } catch (...) {
  }
}

NT_APPLICATION void range_for(nt::Tile x) {
  for (int s : {1, 2}) // expected-error {{range-based 'for' loops are not supported in an application function; write 'for (int i = 0; i < x.shape(0); ++i)'}}
    x = x + s;
}

struct Doubler {
  nt::Tile twice(nt::Tile t) const { return t + t; }
};

NT_APPLICATION void member_function(nt::Tile x) {
  Doubler d;
  x = d.twice(x); // expected-error {{calls of 'twice' are not supported in an application function}}
}

inline nt::Tile increment(nt::Tile t) { return t + 1; }

NT_APPLICATION void function_pointer(nt::Tile x) {
  auto f = &increment; // expected-error {{pointer and array variables are not supported in an application function; use tiles}}
  x = f(x);
}

NT_KERNEL(pointer, arrangement, pointer, nt::Tensor(1, nt::float32));
NT_KERNEL(static_variable, arrangement, static_variable, nt::Tensor(1, nt::float32));
NT_KERNEL(exceptions, arrangement, exceptions, nt::Tensor(1, nt::float32));
NT_KERNEL(range_for, arrangement, range_for, nt::Tensor(1, nt::float32));
NT_KERNEL(member_function, arrangement, member_function, nt::Tensor(1, nt::float32));
NT_KERNEL(function_pointer, arrangement, function_pointer, nt::Tensor(1, nt::float32));
