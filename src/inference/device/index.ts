export { DeviceSchema, parseDevice, type Device, type DeviceKind, type DeviceRequest } from "./device-option.js";
export { DeviceRecordSchema, deviceRecord, type DeviceRecord } from "./device-record.js";
export { describeDevice, resolveDevice, type GgmlDevice, type ResolvedDevice } from "./resolve-device.js";
