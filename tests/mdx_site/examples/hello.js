const kettle = require("kettle");

kettle.boil(() => console.log("ready"));
