/*
 * words.c: common misspellings and their fixes, written for patchreview
 * (lower case, sorted in C order for bsearch). Only words that are wrong
 * wherever they appear: no British or American variants, no words that
 * are right in another sense.
 */
#include <stdlib.h>
#include <string.h>

#include "checks/words.h"

struct misspelling {
	const char *wrong, *right;
};

static const struct misspelling words[] = {
	{ "absense", "absence" }, { "accesible", "accessible" },
	{ "accessable", "accessible" }, { "accidentaly", "accidentally" },
	{ "accomodate", "accommodate" }, { "accross", "across" }, { "acheive", "achieve" },
	{ "acknowlege", "acknowledge" }, { "adddress", "address" },
	{ "addional", "additional" }, { "additionaly", "additionally" },
	{ "addres", "address" }, { "adress", "address" }, { "adresses", "addresses" },
	{ "agressive", "aggressive" }, { "algorith", "algorithm" },
	{ "algoritm", "algorithm" }, { "alignement", "alignment" },
	{ "allocatation", "allocation" }, { "allready", "already" }, { "alot", "a lot" },
	{ "alreay", "already" }, { "alredy", "already" }, { "altough", "although" },
	{ "alwasy", "always" }, { "alwyas", "always" }, { "ambigious", "ambiguous" },
	{ "ammount", "amount" }, { "apropriate", "appropriate" },
	{ "aproximate", "approximate" }, { "aquire", "acquire" }, { "aquired", "acquired" },
	{ "arbitary", "arbitrary" }, { "architecure", "architecture" },
	{ "arguement", "argument" }, { "asign", "assign" }, { "assosiated", "associated" },
	{ "asssume", "assume" }, { "asychronous", "asynchronous" },
	{ "asynchonous", "asynchronous" }, { "asynchronus", "asynchronous" },
	{ "atleast", "at least" }, { "attemp", "attempt" }, { "attribtue", "attribute" },
	{ "automaticaly", "automatically" }, { "automaticly", "automatically" },
	{ "auxilary", "auxiliary" }, { "avaiable", "available" },
	{ "availabe", "available" }, { "availble", "available" },
	{ "avaliable", "available" }, { "becasue", "because" }, { "becuase", "because" },
	{ "beggining", "beginning" }, { "begining", "beginning" }, { "beleive", "believe" },
	{ "boundry", "boundary" }, { "buffred", "buffered" }, { "calcualte", "calculate" },
	{ "caluclate", "calculate" }, { "calulate", "calculate" },
	{ "capabilites", "capabilities" }, { "capabilty", "capability" },
	{ "certian", "certain" }, { "charachter", "character" },
	{ "charater", "character" }, { "choosen", "chosen" }, { "collison", "collision" },
	{ "comand", "command" }, { "comming", "coming" }, { "commited", "committed" },
	{ "commiting", "committing" }, { "comparision", "comparison" },
	{ "compatability", "compatibility" }, { "compatable", "compatible" },
	{ "compatiblity", "compatibility" }, { "completly", "completely" },
	{ "concurent", "concurrent" }, { "condtion", "condition" },
	{ "configuraiton", "configuration" }, { "configuraton", "configuration" },
	{ "conjuction", "conjunction" }, { "connnection", "connection" },
	{ "consistant", "consistent" }, { "contigous", "contiguous" },
	{ "continous", "continuous" }, { "controled", "controlled" },
	{ "controling", "controlling" }, { "correponding", "corresponding" },
	{ "correspoding", "corresponding" }, { "corresponing", "corresponding" },
	{ "curent", "current" }, { "currenly", "currently" }, { "deafult", "default" },
	{ "decriptor", "descriptor" }, { "definately", "definitely" },
	{ "defintion", "definition" }, { "defualt", "default" }, { "defult", "default" },
	{ "deivce", "device" }, { "dependancy", "dependency" },
	{ "dependecy", "dependency" }, { "descibe", "describe" },
	{ "desciption", "description" }, { "descripton", "description" },
	{ "destory", "destroy" }, { "detatch", "detach" }, { "determinated", "determined" },
	{ "develoment", "development" }, { "developement", "development" },
	{ "diffrent", "different" }, { "disabed", "disabled" }, { "dissable", "disable" },
	{ "doesnt", "doesn't" }, { "dublicate", "duplicate" }, { "efficent", "efficient" },
	{ "elemnt", "element" }, { "embeded", "embedded" }, { "enviroment", "environment" },
	{ "equivelant", "equivalent" }, { "equivilant", "equivalent" },
	{ "exisiting", "existing" }, { "existance", "existence" }, { "exmaple", "example" },
	{ "expecially", "especially" }, { "explicitely", "explicitly" },
	{ "explictly", "explicitly" }, { "extention", "extension" }, { "faild", "failed" },
	{ "failiure", "failure" }, { "feild", "field" }, { "finaly", "finally" },
	{ "firmare", "firmware" }, { "fucntion", "function" }, { "fullfill", "fulfill" },
	{ "funcion", "function" }, { "funtion", "function" }, { "garantee", "guarantee" },
	{ "gaurantee", "guarantee" }, { "guarentee", "guarantee" },
	{ "hierachy", "hierarchy" }, { "hierarcy", "hierarchy" },
	{ "ignorning", "ignoring" }, { "immediatly", "immediately" },
	{ "implemention", "implementation" }, { "implmentation", "implementation" },
	{ "incompatable", "incompatible" }, { "inconsistant", "inconsistent" },
	{ "independant", "independent" }, { "infomation", "information" },
	{ "informations", "information" }, { "inital", "initial" },
	{ "initalize", "initialize" }, { "initalized", "initialized" },
	{ "instace", "instance" }, { "interrup", "interrupt" }, { "interupt", "interrupt" },
	{ "interupts", "interrupts" }, { "intialize", "initialize" },
	{ "intialized", "initialized" }, { "invaild", "invalid" }, { "lengh", "length" },
	{ "lenght", "length" }, { "maintainance", "maintenance" },
	{ "maintenence", "maintenance" }, { "managment", "management" },
	{ "mangement", "management" }, { "maxium", "maximum" }, { "memeory", "memory" },
	{ "mesage", "message" }, { "messsage", "message" }, { "mininum", "minimum" },
	{ "minumum", "minimum" }, { "missmatch", "mismatch" }, { "mutliple", "multiple" },
	{ "neccessary", "necessary" }, { "necesary", "necessary" },
	{ "noticable", "noticeable" }, { "occured", "occurred" },
	{ "occurence", "occurrence" }, { "occuring", "occurring" },
	{ "occurrance", "occurrence" }, { "ommited", "omitted" },
	{ "optionnal", "optional" }, { "orignal", "original" },
	{ "overriden", "overridden" }, { "paramater", "parameter" },
	{ "parameteres", "parameters" }, { "paramter", "parameter" },
	{ "paramters", "parameters" }, { "peformance", "performance" },
	{ "perfomance", "performance" }, { "permision", "permission" },
	{ "persistant", "persistent" }, { "posible", "possible" },
	{ "preceeding", "preceding" }, { "prefered", "preferred" },
	{ "previos", "previous" }, { "previuos", "previous" },
	{ "priviledge", "privilege" }, { "probaly", "probably" }, { "proccess", "process" },
	{ "programable", "programmable" }, { "propogate", "propagate" },
	{ "protocal", "protocol" }, { "reciept", "receipt" }, { "recieve", "receive" },
	{ "recieved", "received" }, { "reciever", "receiver" }, { "recomend", "recommend" },
	{ "recomended", "recommended" }, { "refered", "referred" },
	{ "refering", "referring" }, { "refernce", "reference" },
	{ "regsiter", "register" }, { "reigster", "register" }, { "relevent", "relevant" },
	{ "remeber", "remember" }, { "reponse", "response" },
	{ "requirment", "requirement" }, { "reseting", "resetting" },
	{ "resouce", "resource" }, { "resouces", "resources" },
	{ "responsability", "responsibility" }, { "retreive", "retrieve" },
	{ "retrive", "retrieve" }, { "retrun", "return" }, { "seperate", "separate" },
	{ "seperated", "separated" }, { "seperately", "separately" },
	{ "seperator", "separator" }, { "similiar", "similar" },
	{ "speficied", "specified" }, { "substract", "subtract" },
	{ "succeded", "succeeded" }, { "succesful", "successful" },
	{ "succesfully", "successfully" }, { "successfull", "successful" },
	{ "sucess", "success" }, { "sucessful", "successful" },
	{ "sufficent", "sufficient" }, { "suport", "support" }, { "suported", "supported" },
	{ "supress", "suppress" }, { "swtich", "switch" }, { "synchonize", "synchronize" },
	{ "syncronize", "synchronize" }, { "teh", "the" }, { "thier", "their" },
	{ "threshhold", "threshold" }, { "tranfer", "transfer" },
	{ "transfered", "transferred" }, { "trasfer", "transfer" }, { "truely", "truly" },
	{ "unecessary", "unnecessary" }, { "unitialized", "uninitialized" },
	{ "unknwon", "unknown" }, { "unkown", "unknown" },
	{ "unneccessary", "unnecessary" }, { "unsuported", "unsupported" },
	{ "untill", "until" }, { "usally", "usually" }, { "usefull", "useful" },
	{ "usualy", "usually" }, { "verison", "version" }, { "visable", "visible" },
	{ "wether", "whether" }, { "wheter", "whether" }, { "whith", "with" },
	{ "wich", "which" }, { "wierd", "weird" }, { "writen", "written" },
	{ "writting", "writing" },
};

/*
 * A binary search that compares first letters before calling strcmp():
 * most words differ from the entry in the middle at their first letter.
 */
const char *spelling_fix(const char *word)
{
	size_t lo = 0, hi = sizeof(words) / sizeof(*words);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *w = words[mid].wrong;
		int c = (unsigned char)word[0] - (unsigned char)w[0];
		if (!c)
			c = strcmp(word + 1, w + 1);
		if (!c)
			return words[mid].right;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}
