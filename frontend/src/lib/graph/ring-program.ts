// A sigma node program: a disc with an optional ring (solid or dashed)
// just inside its edge. Used for pinned nodes and for loaded / relevant
// candidates after a query. Imported only where WebGL exists (sigma's
// rendering module touches WebGLRenderingContext when it loads).
import { NodeProgram } from 'sigma/rendering';
import type { ProgramInfo } from 'sigma/rendering';
import type { NodeDisplayData, RenderParams } from 'sigma/types';
import type { Attributes } from 'graphology-types';
import { floatColor } from 'sigma/utils';

const VERTEX = /* glsl */ `
attribute vec4 a_id;
attribute vec4 a_color;
attribute vec4 a_ringColor;
attribute vec2 a_position;
attribute float a_size;
attribute float a_ring;
attribute float a_angle;

uniform mat3 u_matrix;
uniform float u_sizeRatio;
uniform float u_correctionRatio;

varying vec4 v_color;
varying vec4 v_ringColor;
varying vec2 v_diffVector;
varying float v_radius;
varying float v_ring;

const float bias = 255.0 / 254.0;

void main() {
  float size = a_size * u_correctionRatio / u_sizeRatio * 4.0;
  vec2 diffVector = size * vec2(cos(a_angle), sin(a_angle));
  vec2 position = a_position + diffVector;
  gl_Position = vec4((u_matrix * vec3(position, 1)).xy, 0, 1);
  v_diffVector = diffVector;
  v_radius = size / 2.0;
  v_ring = a_ring;
  #ifdef PICKING_MODE
  v_color = a_id;
  v_ringColor = a_id;
  #else
  v_color = a_color;
  v_ringColor = a_ringColor;
  #endif
  v_color.a *= bias;
  v_ringColor.a *= bias;
}
`;

const FRAGMENT = /* glsl */ `
precision highp float;

varying vec4 v_color;
varying vec4 v_ringColor;
varying vec2 v_diffVector;
varying float v_radius;
varying float v_ring;

uniform float u_correctionRatio;

const vec4 transparent = vec4(0.0, 0.0, 0.0, 0.0);
const float PI = 3.14159265;

void main(void) {
  float aa = u_correctionRatio * 2.0;
  float len = length(v_diffVector);
  float dist = len - v_radius + aa;

  #ifdef PICKING_MODE
  if (dist > aa) gl_FragColor = transparent;
  else gl_FragColor = v_color;
  #else
  float width = abs(v_ring);
  vec4 colour = v_color;
  if (width > 0.0 && len > v_radius * (1.0 - width)) {
    colour = v_ringColor;
    if (v_ring < 0.0) {
      // Dashed: ten dashes around the ring, the fill showing in the gaps.
      float turn = (atan(v_diffVector.y, v_diffVector.x) + PI) / (2.0 * PI);
      if (fract(turn * 10.0) > 0.55) colour = v_color;
    }
  }
  float t = 0.0;
  if (dist > aa) t = 1.0;
  else if (dist > 0.0) t = dist / aa;
  gl_FragColor = mix(colour, transparent, t);
  #endif
}
`;

const { UNSIGNED_BYTE, FLOAT } = WebGLRenderingContext;
const UNIFORMS = ['u_sizeRatio', 'u_correctionRatio', 'u_matrix'] as const;

interface RingData extends NodeDisplayData {
  ringColor?: string;
  ringWidth?: number;
  ringDashed?: boolean;
}

export default class NodeRingProgram<
  N extends Attributes = Attributes,
  E extends Attributes = Attributes,
  G extends Attributes = Attributes,
> extends NodeProgram<(typeof UNIFORMS)[number], N, E, G> {
  getDefinition() {
    return {
      VERTICES: 3,
      VERTEX_SHADER_SOURCE: VERTEX,
      FRAGMENT_SHADER_SOURCE: FRAGMENT,
      METHOD: WebGLRenderingContext.TRIANGLES,
      UNIFORMS,
      ATTRIBUTES: [
        { name: 'a_position', size: 2, type: FLOAT },
        { name: 'a_size', size: 1, type: FLOAT },
        { name: 'a_color', size: 4, type: UNSIGNED_BYTE, normalized: true },
        { name: 'a_ringColor', size: 4, type: UNSIGNED_BYTE, normalized: true },
        { name: 'a_ring', size: 1, type: FLOAT },
        { name: 'a_id', size: 4, type: UNSIGNED_BYTE, normalized: true },
      ],
      CONSTANT_ATTRIBUTES: [{ name: 'a_angle', size: 1, type: FLOAT }],
      CONSTANT_DATA: [[0], [(2 * Math.PI) / 3], [(4 * Math.PI) / 3]],
    };
  }

  processVisibleItem(nodeIndex: number, startIndex: number, data: NodeDisplayData): void {
    const d = data as RingData;
    const array = this.array;
    const width = Math.max(0, Math.min(1, d.ringWidth ?? 0));
    array[startIndex++] = d.x;
    array[startIndex++] = d.y;
    array[startIndex++] = d.size;
    array[startIndex++] = floatColor(d.color);
    array[startIndex++] = floatColor(d.ringColor || d.color);
    array[startIndex++] = d.ringDashed ? -width : width;
    array[startIndex++] = nodeIndex;
  }

  setUniforms(params: RenderParams, { gl, uniformLocations }: ProgramInfo): void {
    gl.uniform1f(uniformLocations.u_correctionRatio, params.correctionRatio);
    gl.uniform1f(uniformLocations.u_sizeRatio, params.sizeRatio);
    gl.uniformMatrix3fv(uniformLocations.u_matrix, false, params.matrix);
  }
}
