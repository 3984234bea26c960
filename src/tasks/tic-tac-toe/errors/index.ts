export { IllegalMoveError } from "./illegal-move-error.js";
