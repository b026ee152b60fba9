import * as enums from "./enums";
import * as input from "./input";
import * as output from "./output";
export { enums, input, output, };
//# sourceMappingURL=index.d.ts.map