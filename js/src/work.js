// The shape of a Work as the module reads it. The module checks what a Work means (the same
// checks, and messages, as natively); this checks only the JSON types, because a frame the module
// cannot decode is lost whole, with whatever else it carried.
import { A2APortError } from './errors.js';

const stringFields = ['id', 'ownerId', 'instruction', 'continuity'];
const partFields = ['type', 'mime', 'filename', 'url'];

const isStringOrAbsent = (v) => v === undefined || v === null || typeof v === 'string';
const invalid = (what) => new A2APortError('INVALID_WORK', `a2aport: ${what}`);

/** Throws INVALID_WORK unless work has the types of a Work. */
export function checkWork(work) {
  if (work === null || typeof work !== 'object' || Array.isArray(work)) throw invalid('submit needs a Work object');
  for (const name of stringFields) {
    if (!isStringOrAbsent(work[name])) throw invalid(`work.${name} must be a string, got ${typeof work[name]}`);
  }
  const input = work.input;
  if (input !== undefined && input !== null) {
    if (typeof input !== 'object' || Array.isArray(input)) throw invalid('work.input must be an object of structured input');
    try {
      JSON.stringify(input);
    } catch (e) {
      throw invalid(`work.input does not encode as JSON: ${e.message}`);
    }
  }
  const parts = work.inputParts;
  if (parts === undefined || parts === null) return;
  if (!Array.isArray(parts)) throw invalid('work.inputParts must be an array of file parts');
  parts.forEach((p, i) => {
    if (p === null || typeof p !== 'object') throw invalid(`work.inputParts[${i}] must be an object`);
    for (const name of partFields) {
      if (!isStringOrAbsent(p[name])) throw invalid(`work.inputParts[${i}].${name} must be a string, got ${typeof p[name]}`);
    }
  });
}

/** Whether every id is a string or absent (ids of other types name no Work). */
export const idsReadable = (...ids) => ids.every(isStringOrAbsent);

/** Throws INVALID_WORK unless response has the types of an input response. */
export function checkResponse(response) {
  if (response === undefined || response === null) return;
  if (typeof response !== 'object' || Array.isArray(response)) throw invalid('a response must be an object ({text}, {values} or {action})');
  for (const name of ['text', 'action']) {
    if (!isStringOrAbsent(response[name])) throw invalid(`response.${name} must be a string, got ${typeof response[name]}`);
  }
  const v = response.values;
  if (v !== undefined && v !== null && (typeof v !== 'object' || Array.isArray(v))) throw invalid('response.values must be an object');
}
