// Imaging: placeholder, replaced by the real module.
