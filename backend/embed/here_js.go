package embed

const fullEncoderHere = false
