export { GrammarRejectedTokenError } from "./grammar-rejected-token-error.js";
